// One creation answer per task (issue 41, point 3): two calls with one idempotency key, the second
// arriving between the first's admit and its create (two isolates on Cloudflare). The second finds
// the key admitted and no task yet, so it writes the task itself; the TaskObject is the arbiter and
// tells only the first create that it created it, so only that call stops the task on leaving.
import { describe, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { readSettings } from "../../src/config";
import { TaskGateway, type GatewayBindings, type PrincipalIndex } from "../../src/core";
import { gatewayBindings } from "../../src/principals/principal-indexes";
import { requestContext } from "../../src/protocol/request-context";
import type { Context20260728 } from "../../src/mcp-2026-07-28/context";
import { toolsCall } from "../../src/mcp-2026-07-28/tools";
import { toolHolder } from "../../src/package/tool-set";
import { tools } from "../../src/tools/registry";
import type { TaskObject } from "../../src/index";
import { until } from "../until";

const settings = readSettings(env);
const KEY = "mcp-task-worker/idempotency-key";
const settle = until(20);

/** A door a call waits at: `reached` when it got there, `open()` lets it through. */
function door() {
  let arrive: () => void = () => undefined;
  let open: () => void = () => undefined;
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  const opened = new Promise<void>((resolve) => (open = resolve));
  const pass = (): Promise<void> => {
    arrive();
    return opened;
  };
  return { reached, open, pass };
}

/** Call A's isolate: its index answers its admit, and the answer waits at `held` before reaching the call. */
function heldAdmit(principal: string, held: ReturnType<typeof door>): GatewayBindings {
  const bindings = gatewayBindings(env);
  const index = (): PrincipalIndex => {
    const real = bindings.indexes(principal);
    return {
      lease: (input) => real.lease(input),
      admit: async (input) => {
        const answer = await real.admit(input);
        await held.pass();
        return answer;
      },
      remove: (taskId) => real.remove(taskId),
      list: (cursor, limit) => real.list(cursor, limit),
      listEntries: (cursor, limit) => real.listEntries(cursor, limit),
      announce: (task, tool) => real.announce(task, tool),
      track: (task, tool) => real.track(task, tool),
      update: (task) => real.update(task),
    };
  };
  return { ...bindings, indexes: index };
}

/** Call B's isolate: its TaskObject creates wait at `held` before they leave (it already looked and found no task). */
function heldCreate(held: ReturnType<typeof door>): GatewayBindings {
  const bindings = gatewayBindings(env);
  const holdCreate = (stub: DurableObjectStub<TaskObject>) =>
    new Proxy(stub, {
      get(target, property) {
        if (property === "create")
          return (...args: Parameters<DurableObjectStub<TaskObject>["create"]>) =>
            held.pass().then(() => target.create(...args));
        // Every other method as it is, called on the stub itself (workerd refuses another `this`).
        const value: unknown = Reflect.get(target, property);
        return typeof value === "function" ? (...args: unknown[]) => Reflect.apply(value, target, args) : value;
      },
    });
  const tasks = new Proxy(env.TASKS, {
    get(target, property) {
      if (property === "getByName") return (name: string) => holdCreate(target.getByName(name));
      return Reflect.get(target, property);
    },
  });
  return { ...bindings, env: { TASKS: tasks } };
}

/** A 2026-07-28 plain call's context (no Tasks extension), its client leaving when `leave` aborts. */
function plainCall(gateway: TaskGateway, leave: AbortSignal): Context20260728 {
  const base = requestContext({
    env,
    settings,
    tools: { tools, find: toolHolder().record(tools).find },
    principal: gateway.principal,
    baseUrl: "https://example.test",
    waitUntil: (promise) => void promise.catch(() => undefined), // only the job message's send
  });
  return {
    ...base,
    gateway,
    envelope: { version: "2026-07-28", capabilities: {}, tasks: false },
    requestId: 1,
    output: { canNotify: false, notify: () => undefined, stream: () => undefined, signal: leave },
  };
}

const countdown = (key: string) => ({ name: "countdown", arguments: { seconds: 120 }, _meta: { [KEY]: key } });

describe("two calls with one idempotency key, the second between the first's admit and its create", () => {
  it("are told apart by the task's object: A created=true, B created=false, one task", async ({ expect }) => {
    const principal = `p-${crypto.randomUUID()}`;
    const admitA = door();
    const createB = door();
    const a = new TaskGateway(heldAdmit(principal, admitA), settings, principal);
    const b = new TaskGateway(heldCreate(createB), settings, principal);
    const request = { tool: "countdown", args: { seconds: 120 }, idempotencyKey: "k" };
    const first = a.create(request);
    await admitA.reached; // A's key is admitted; its task is not written yet
    const second = b.create(request);
    await createB.reached; // B found the key and no task: it goes to write the task itself
    admitA.open();
    const created = await first;
    createB.open();
    const repeated = await second;
    if (!created.ok || !repeated.ok) throw new Error(`not created: ${JSON.stringify([created, repeated])}`);
    const line = `A created=${created.created} B created=${repeated.created} same task=${created.snapshot.task.taskId === repeated.snapshot.task.taskId}`;
    expect(line).toBe("A created=true B created=false same task=true");
    expect((await a.list(undefined))?.tasks).toHaveLength(1);
    await a.cancel(created.snapshot.task.taskId);
  });

  it("leaves the task running when B's client leaves; A's leaving stops it (2026 plain calls)", async ({ expect }) => {
    const principal = `p-${crypto.randomUUID()}`;
    const admitA = door();
    const createB = door();
    const a = new TaskGateway(heldAdmit(principal, admitA), settings, principal);
    const b = new TaskGateway(heldCreate(createB), settings, principal);
    const leaveA = new AbortController();
    const leaveB = new AbortController();
    const callA = toolsCall(plainCall(a, leaveA.signal), countdown("k"));
    await admitA.reached;
    // B's client has already gone when its call gets its task: a call that created it would stop it now.
    leaveB.abort();
    const callB = toolsCall(plainCall(b, leaveB.signal), countdown("k"));
    await createB.reached;
    admitA.open();
    // Admitted, so listed; then written by A's create, which B's (still held) was not first to.
    const [created] = (await a.list(undefined))?.tasks ?? [];
    if (!created) throw new Error("A's task is not listed");
    await vi.waitFor(async () => expect(await a.get(created.taskId)).toBeDefined(), settle);
    createB.open();
    const answerB = await callB;
    expect(JSON.stringify(answerB)).toContain(created.taskId);
    expect((await a.get(created.taskId))?.task.status).toBe("working");
    leaveA.abort();
    await callA;
    expect((await a.get(created.taskId))?.task.status).toBe("cancelled");
  });
});
