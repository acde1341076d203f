/**
 * Counting wrappers for the instrumented Worker: the bindings a Worker or object is given (each
 * call on a Durable Object stub is one billed request; each queue send one write), an object's
 * storage (rows each SQL statement read and wrote; key-value and alarm calls), and its handlers
 * (the time it has at least one running). Natives are proxied with their methods bound to them.
 */
import { add, enter, leave, recordCursor } from "./counters";

/** A property of a native object, its methods bound to it (a proxy is not a valid `this` for them). */
function bound(target: object, prop: string | symbol): unknown {
  const value: unknown = Reflect.get(target, prop, target);
  return typeof value === "function" ? value.bind(target) : value;
}

/** A stub's every property is an RPC method (even `bind`), so its methods are called on it rather than bound. */
function countedStub<T extends object>(stub: T, className: string, objectId: string): T {
  return new Proxy(stub, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof value !== "function" || typeof prop !== "string" || prop === "then") return value;
      return (...args: unknown[]) => {
        add("doRequests", `${className}.${prop}`);
        add("doRequestsByObject", `${className}:${objectId}`);
        return Reflect.apply(value, target, args);
      };
    },
  });
}

function countedNamespace<T extends object>(namespace: T, className: string): T {
  return new Proxy(namespace, {
    get(target, prop) {
      const value = bound(target, prop);
      if (typeof value !== "function" || (prop !== "get" && prop !== "getByName")) return value;
      return (...args: unknown[]) => {
        const stub: unknown = Reflect.apply(value, undefined, args);
        const [first] = args;
        const byName = bound(target, "idFromName");
        const id =
          prop === "getByName" && typeof first === "string" && typeof byName === "function"
            ? String(Reflect.apply(byName, undefined, [first]))
            : String(first);
        return typeof stub === "object" && stub !== null ? countedStub(stub, className, id) : stub;
      };
    },
  });
}

function countedQueue<T extends object>(queue: T, name: string): T {
  return new Proxy(queue, {
    get(target, prop) {
      const value = bound(target, prop);
      if (typeof value !== "function" || (prop !== "send" && prop !== "sendBatch")) return value;
      return (...args: unknown[]) => {
        const [first] = args;
        add("queueWrites", name, prop === "sendBatch" && Array.isArray(first) ? first.length : 1);
        return Reflect.apply(value, undefined, args);
      };
    },
  });
}

/** A delivered queue message whose ack (a delete) and retry (another read) are counted. */
export function countedMessage<T extends Message<unknown>>(message: T, queue: string): T {
  return new Proxy(message, {
    get(target, prop) {
      const value = bound(target, prop);
      if (typeof value !== "function" || (prop !== "ack" && prop !== "retry")) return value;
      return (...args: unknown[]) => {
        add(prop === "ack" ? "queueAcks" : "queueRetries", queue);
        return Reflect.apply(value, undefined, args);
      };
    },
  });
}

const NAMESPACES: Record<string, string> = {
  TASKS: "TaskObject",
  SESSIONS: "SessionObject",
  PRINCIPALS: "PrincipalObject",
  RATE_LIMITER: "RateLimiterObject",
  EVENTS: "EventLogObject",
};
const QUEUES: Record<string, string> = { JOBS: "jobs", STEPS: "steps", WEBHOOKS: "webhooks" };

export function countedEnv(env: Env): Env {
  return new Proxy(env, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (typeof prop !== "string" || typeof value !== "object" || value === null) return value;
      const className = NAMESPACES[prop];
      if (className !== undefined) return countedNamespace(value, className);
      const queue = QUEUES[prop];
      return queue !== undefined ? countedQueue(value, queue) : value;
    },
  });
}

const STORAGE_CALLS = new Set(["get", "put", "delete", "list", "deleteAll", "getAlarm", "setAlarm", "deleteAlarm"]);

/**
 * Counts what an object does with its storage: the rows each SQL statement read and wrote, and its
 * key-value and alarm calls. The runtime refuses a proxy in place of the state it hands a Durable
 * Object, so the methods are replaced on the state's own storage objects, before the object is built.
 */
export function instrumentState(ctx: DurableObjectState, className: string): void {
  const { storage } = ctx;
  const { sql } = storage;
  if (storage.sql !== sql) throw new Error("ctx.storage.sql is not one object: its exec cannot be counted");
  const exec = sql.exec.bind(sql);
  Reflect.set(sql, "exec", (query: string, ...bindings: unknown[]) => {
    const cursor = exec(query, ...bindings);
    recordCursor(className, query, cursor);
    return cursor;
  });
  for (const name of STORAGE_CALLS) {
    const method: unknown = Reflect.get(storage, name);
    if (typeof method !== "function") continue;
    const call = method.bind(storage);
    Reflect.set(storage, name, (...args: unknown[]) => {
      add("storageCalls", `${className}.${name}`);
      return call(...args);
    });
  }
}

/** Handlers the runtime calls on an object besides its RPC methods. */
const HANDLERS = ["fetch", "alarm", "webSocketMessage", "webSocketClose", "webSocketError"];

/**
 * Wraps a Durable Object class's entry points (its RPC methods and handlers, all async) so that
 * the object counts as active while one runs, and counts alarms and incoming WebSocket messages.
 */
export function countHandlers(prototype: object, className: string, rpcMethods: readonly string[]): void {
  for (const name of [...rpcMethods, ...HANDLERS]) {
    const original: unknown = Reflect.get(prototype, name);
    if (typeof original !== "function") continue;
    Reflect.set(prototype, name, async function (this: { ctx: DurableObjectState }, ...args: unknown[]) {
      const id = this.ctx.id.toString();
      if (name === "alarm") {
        add("alarms", className);
        add("alarmsByObject", `${className}:${id}`);
      }
      if (name === "webSocketMessage") add("webSocketMessagesIn", className);
      enter(className, id);
      try {
        return (await Reflect.apply(original, this, args)) as unknown;
      } finally {
        leave(className, id);
      }
    });
  }
}
