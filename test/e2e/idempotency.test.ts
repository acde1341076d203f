// Idempotent creation on the real runtime: a tools/call repeated with the same
// `_meta["mcp-task-worker/idempotency-key"]` answers with the same task and starts no second job.
import { describe, it, vi } from "vitest";
import { sharedServer } from "./support/dev-server";
import { KEYED_TOKENS, KEYED_VARS } from "./support/server-settings";
import { parseSse, rpc } from "./support/mcp";
import { eventLog, type LoggedEvent } from "./support/tasks";
import { errorOf, modern, resultOf, TASKS } from "./support/modern";
import { until } from "../until";

const KEY = "mcp-task-worker/idempotency-key";
const RELATED = "io.modelcontextprotocol/related-task";
// It lists its principal's tasks: a principal of its own (idem) on a shared server.
const server = sharedServer(KEYED_VARS);
const auth = { Authorization: `Bearer ${KEYED_TOKENS.idem}` };
/** One JSON-RPC request as idem. */
const send = (body: unknown, headers: Record<string, string> = {}) =>
  rpc(server.url, body, { headers: { ...auth, ...headers } });

const call = (id: number, name: string, args: Record<string, unknown>, extra: Record<string, unknown>) =>
  ({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args, ...extra } }) as const;

async function listTaskIds(): Promise<string[]> {
  const reply = await send({ jsonrpc: "2.0", id: 99, method: "tasks/list", params: {} });
  return (reply.body as { result: { tasks: { taskId: string }[] } }).result.tasks.map((t) => t.taskId);
}

/** How many runs the task's job started (each run announces itself with a status event). */
const runsStarted = (log: LoggedEvent[]) =>
  log.filter((e) => e.event === "status" && /^(Running|Resuming)/.test(String(e.data["statusMessage"]))).length;

describe("idempotency keys on tools/call", () => {
  it("answers a repeated task-augmented call with the same task", async ({ expect }) => {
    const key = `k-${crypto.randomUUID()}`;
    const request = (id: number) =>
      call(id, "countdown", { seconds: 2 }, { task: { ttl: 60_000 }, _meta: { [KEY]: key } });
    const first = (await send(request(1))).body as { result: { task: { taskId: string } } };
    const second = (await send(request(2))).body as { result: { task: { taskId: string } } };
    const taskId = first.result.task.taskId;
    expect(taskId).toMatch(/^[0-9a-f]{32}$/);
    expect(second.result.task.taskId).toBe(taskId);

    const log = await eventLog(server.url, taskId, auth);
    expect(log.at(-1)?.event).toBe("result");
    expect(runsStarted(log)).toBe(1);
    expect((await listTaskIds()).filter((id) => id === taskId)).toHaveLength(1);
  });

  it("returns the same task to a plain call repeated after its response was lost", async ({ expect }) => {
    const key = `k-${crypto.randomUUID()}`;
    const body = JSON.stringify(call(1, "countdown", { seconds: 3 }, { _meta: { [KEY]: key, progressToken: "p1" } }));
    const headers = { ...auth, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
    const before = new Set(await listTaskIds());

    // The first attempt's response is lost: the client hangs up as soon as the stream opens.
    const aborter = new AbortController();
    const lost = await fetch(`${server.url}/mcp`, { method: "POST", headers, body, signal: aborter.signal });
    expect(lost.status).toBe(200);
    aborter.abort();
    await lost.body?.cancel().catch(() => undefined);

    // The task exists and runs on without its reader.
    let taskId = "";
    await vi.waitFor(async () => {
      const created = (await listTaskIds()).filter((id) => !before.has(id));
      expect(created).toHaveLength(1);
      taskId = created[0] ?? "";
    }, until());

    const retried = await fetch(`${server.url}/mcp`, { method: "POST", headers, body });
    const messages = parseSse(await retried.text()).map(
      (e) => JSON.parse(e.data) as { id?: number; result?: Record<string, unknown> },
    );
    const final = messages.find((m) => m.id === 1);
    expect(final?.result).toMatchObject({
      content: [{ type: "text", text: "Countdown of 3 s finished." }],
      _meta: { [RELATED]: { taskId } },
    });

    expect((await listTaskIds()).filter((id) => !before.has(id))).toEqual([taskId]);
    expect(runsStarted(await eventLog(server.url, taskId, auth))).toBe(1);
  });

  it("keeps different keys apart", async ({ expect }) => {
    const request = (id: number, key: string) =>
      call(id, "countdown", { seconds: 1 }, { task: {}, _meta: { [KEY]: key } });
    const a = (await send(request(1, `a-${crypto.randomUUID()}`))).body as {
      result: { task: { taskId: string } };
    };
    const b = (await send(request(2, `b-${crypto.randomUUID()}`))).body as {
      result: { task: { taskId: string } };
    };
    expect(a.result.task.taskId).not.toBe(b.result.task.taskId);
  });

  it("refuses a key reused for another tool, naming the key, and creates nothing", async ({ expect }) => {
    const key = `k-${crypto.randomUUID()}`;
    const first = (await send(call(1, "countdown", { seconds: 1 }, { task: {}, _meta: { [KEY]: key } }))).body as {
      result: { task: { taskId: string } };
    };
    const before = await listTaskIds();
    const reused = await send(
      call(2, "deploy", { service: "api", version: "v1" }, { task: {}, _meta: { [KEY]: key } }),
    );
    expect(reused.status).toBe(200);
    const error = (reused.body as { error?: { code: number; message: string } }).error;
    expect(error?.code).toBe(-32602);
    expect(error?.message).toContain(`"${key}"`);
    expect(error?.message).toMatch(/another call.*"countdown".*nothing was created/);
    expect(await listTaskIds()).toEqual(before);
    // The first call repeated still finds its task.
    const again = (await send(call(3, "countdown", { seconds: 1 }, { task: {}, _meta: { [KEY]: key } }))).body as {
      result: { task: { taskId: string } };
    };
    expect(again.result.task.taskId).toBe(first.result.task.taskId);
  });

  it("refuses a key reused for the same tool with other arguments, and creates nothing", async ({ expect }) => {
    const key = `k-${crypto.randomUUID()}`;
    await send(call(1, "countdown", { seconds: 1 }, { task: {}, _meta: { [KEY]: key } }));
    const before = await listTaskIds();
    for (const args of [{ seconds: 2 }, { seconds: 30 }]) {
      const reused = await send(call(2, "countdown", args, { task: {}, _meta: { [KEY]: key } }));
      const error = (reused.body as { error?: { code: number; message: string } }).error;
      expect(error?.code, JSON.stringify(args)).toBe(-32602);
      expect(error?.message).toContain(`"${key}"`);
      expect(error?.message).toContain('the same tool "countdown" with other arguments');
    }
    // A plain call (no params.task) with other arguments is refused the same way.
    const plain = await send(call(3, "countdown", { seconds: 3 }, { _meta: { [KEY]: key } }), {
      Accept: "application/json",
    });
    expect((plain.body as { error?: { code: number } }).error?.code).toBe(-32602);
    expect(await listTaskIds()).toEqual(before);
  });

  it("holds in 2026-07-28 too: the same call gets the same task, another call -32602 naming the key", async ({
    expect,
  }) => {
    const key = `k-${crypto.randomUUID()}`;
    const call2026 = (args: Record<string, unknown>) =>
      modern(
        server.url,
        "tools/call",
        { name: "countdown", arguments: args },
        { capabilities: TASKS, meta: { [KEY]: key }, token: KEYED_TOKENS.idem },
      );
    const first = resultOf(await call2026({ seconds: 1 }));
    expect(resultOf(await call2026({ seconds: 1 }))["taskId"]).toBe(first["taskId"]);
    const before = await listTaskIds();
    const other = await call2026({ seconds: 2 });
    expect(errorOf(other)).toMatchObject({ code: -32602, message: expect.stringContaining(`"${key}"`) });
    expect(await listTaskIds()).toEqual(before);
  });

  it("treats the same arguments in another key order as the same call", async ({ expect }) => {
    const key = `k-${crypto.randomUUID()}`;
    const a = (await send(call(1, "deploy", { service: "api", version: "v1" }, { task: {}, _meta: { [KEY]: key } })))
      .body as { result: { task: { taskId: string } } };
    const b = (await send(call(2, "deploy", { version: "v1", service: "api" }, { task: {}, _meta: { [KEY]: key } })))
      .body as { result: { task: { taskId: string } } };
    expect(b.result.task.taskId).toBe(a.result.task.taskId);
  });

  it("refuses a malformed key with a JSON-RPC error", async ({ expect }) => {
    const reply = await send(call(1, "countdown", { seconds: 1 }, { task: {}, _meta: { [KEY]: 42 } }));
    expect(reply.status).toBeLessThan(500);
    expect(reply.body).toMatchObject({ error: { code: -32602 } });
  });
});
