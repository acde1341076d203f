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

function countedStub<T extends object>(stub: T, className: string): T {
  return new Proxy(stub, {
    get(target, prop) {
      const value = bound(target, prop);
      if (typeof value !== "function" || typeof prop !== "string" || prop === "then") return value;
      return (...args: unknown[]) => {
        add("doRequests", `${className}.${prop}`);
        return Reflect.apply(value, undefined, args);
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
        return typeof stub === "object" && stub !== null ? countedStub(stub, className) : stub;
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

const NAMESPACES: Record<string, string> = { TASKS: "TaskObject", SESSIONS: "SessionObject", PRINCIPALS: "PrincipalObject", RATE_LIMITER: "RateLimiterObject" };
const QUEUES: Record<string, string> = { JOBS: "jobs", WEBHOOKS: "webhooks" };

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

function countedSql(sql: SqlStorage, className: string): SqlStorage {
  return new Proxy(sql, {
    get(target, prop) {
      const value = bound(target, prop);
      if (prop !== "exec" || typeof value !== "function") return value;
      return (...args: unknown[]) => {
        const cursor: unknown = Reflect.apply(value, undefined, args);
        if (typeof cursor === "object" && cursor !== null) {
          recordCursor(className, { get rowsRead() { return Number(Reflect.get(cursor, "rowsRead")); }, get rowsWritten() { return Number(Reflect.get(cursor, "rowsWritten")); } });
        }
        return cursor;
      };
    },
  });
}

function countedStorage(storage: DurableObjectStorage, className: string): DurableObjectStorage {
  const sql = countedSql(storage.sql, className);
  return new Proxy(storage, {
    get(target, prop) {
      if (prop === "sql") return sql;
      const value = bound(target, prop);
      if (typeof value !== "function" || typeof prop !== "string" || !STORAGE_CALLS.has(prop)) return value;
      return (...args: unknown[]) => {
        add("storageCalls", `${className}.${prop}`);
        return Reflect.apply(value, undefined, args);
      };
    },
  });
}

export function countedState(ctx: DurableObjectState, className: string): DurableObjectState {
  const storage = countedStorage(ctx.storage, className);
  return new Proxy(ctx, {
    get(target, prop) {
      return prop === "storage" ? storage : bound(target, prop);
    },
  });
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
      if (name === "alarm") add("alarms", className);
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
