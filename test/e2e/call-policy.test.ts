// The plain-call policy on the real runtime (src/protocol/call-policy.ts), in both eras: a call that
// found another call's task by its idempotency key never cancels it; a repeated call of a task that
// waits for a person answers at once; and in 2025 a cancellation reaches the running job while its
// call is open (SDK v1 Client's AbortSignal, raw notifications/cancelled), but never after it was
// answered (OpenCode sends one after every answer).
import { describe, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { sharedServer } from "./support/dev-server";
import { KEEPALIVE_VARS } from "./support/server-settings";
import { DEPLOY, waitForStatus, YES } from "./support/hitl";
import { rpc } from "./support/mcp";
import { modern, openStream, resultOf, startTask as startModernTask, TASKS } from "./support/modern";
import { openSse } from "./support/sse-reader";
import { getTask, startTask } from "./support/tasks";
import { until } from "../until";

// A long inline budget: a call that waited for it instead of answering at once outlives its test.
// Frequent keepalives: wrangler dev notices a client gone only when the stream is written, and a
// deploy's rollout (3 s) must not end before that. Principals p0…p8 (support/server-settings.ts).
const server = sharedServer(KEEPALIVE_VARS);
const as = (n: number) => ({ Authorization: `Bearer t${n}` });
const settle = until(100);
const KEY = "mcp-task-worker/idempotency-key";

/** The principal's tasks (each test has its own principal). */
async function tasksOf(n: number): Promise<{ taskId: string; status: string }[]> {
  const reply = await rpc(server.url, { jsonrpc: "2.0", id: 1, method: "tasks/list" }, { headers: as(n) });
  return (reply.body as { result: { tasks: { taskId: string; status: string }[] } }).result.tasks;
}

/** Waits until a countdown has counted `seconds` more than now: a cancelled one never does. */
async function countsOn(taskId: string, headers: Record<string, string>, seconds: number): Promise<void> {
  const from = (await getTask(server.url, taskId, headers)).progress?.progress ?? 0;
  await vi.waitFor(async () => {
    const task = await getTask(server.url, taskId, headers);
    if (task.status !== "working") throw new Error(`stopped: ${task.status}`);
    if ((task.progress?.progress ?? 0) < from + seconds) throw new Error("not yet");
  }, settle);
}

/** A 2025 session over raw HTTP (declaring no elicitation): its id. */
async function rawSession(n: number): Promise<string> {
  const init = await rpc(
    server.url,
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    },
    { headers: as(n) },
  );
  const sessionId = init.headers.get("Mcp-Session-Id") ?? "";
  await rpc(
    server.url,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    { headers: { ...as(n), "Mcp-Session-Id": sessionId } },
  );
  return sessionId;
}

const cancelled = (requestId: unknown) => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId, reason: "user stopped it" },
});

describe("2026-07-28: a plain call of another call's task", () => {
  it("leaves the task running when its client disconnects", async ({ expect }) => {
    const key = `k-${crypto.randomUUID()}`;
    const taskId = await startModernTask(
      server.url,
      "countdown",
      { seconds: 120 },
      { token: "t0", meta: { [KEY]: key } },
    );
    // The same call again, from a client without the Tasks extension: it follows the task the key names.
    const stream = await openStream(
      server.url,
      "tools/call",
      { name: "countdown", arguments: { seconds: 120 } },
      { token: "t0", meta: { [KEY]: key, progressToken: "p" } },
    );
    await vi.waitFor(
      () => expect(stream.messages.some((m) => m["method"] === "notifications/progress")).toBe(true),
      settle,
    );
    stream.close();
    await stream.ended;
    await countsOn(taskId, as(0), 3);
    await modern(server.url, "tasks/cancel", { taskId }, { capabilities: TASKS, token: "t0" });
  });

  it("answers at once when the task waits for a person: the question to a client that can ask, else the link", async ({
    expect,
  }) => {
    const key = `k-${crypto.randomUUID()}`;
    const taskId = await startModernTask(server.url, "deploy", DEPLOY, { token: "t1", meta: { [KEY]: key } });
    await waitForStatus(server.url, taskId, "input_required", as(1));
    const again = (capabilities: Record<string, unknown>) =>
      modern(
        server.url,
        "tools/call",
        { name: "deploy", arguments: DEPLOY },
        { token: "t1", capabilities, meta: { [KEY]: key } },
      );
    expect(resultOf(await again({}))).toMatchObject({ structuredContent: { taskId, status: "input_required" } });
    expect(resultOf(await again({ elicitation: {} }))).toMatchObject({
      resultType: "input_required",
      inputRequests: { confirm: expect.anything() },
    });
  });

  it("leaves it running when a multi round-trip retry of that call disconnects", async ({ expect }) => {
    const key = `k-${crypto.randomUUID()}`;
    const taskId = await startModernTask(server.url, "deploy", DEPLOY, { token: "t8", meta: { [KEY]: key } });
    await waitForStatus(server.url, taskId, "input_required", as(8));
    const asked = resultOf(
      await modern(
        server.url,
        "tools/call",
        { name: "deploy", arguments: DEPLOY },
        { token: "t8", capabilities: { elicitation: {} }, meta: { [KEY]: key } },
      ),
    );
    // The retry answers (the rollout then takes 3 steps of about a second) and its client leaves mid-rollout.
    const params = {
      name: "deploy",
      arguments: DEPLOY,
      requestState: String(asked["requestState"]),
      inputResponses: { confirm: YES },
    };
    const stream = await openStream(server.url, "tools/call", params, {
      token: "t8",
      capabilities: { elicitation: {} },
      meta: { progressToken: "r" },
    });
    await vi.waitFor(
      () => expect(stream.messages.some((m) => m["method"] === "notifications/progress")).toBe(true),
      settle,
    );
    stream.close();
    await stream.ended;
    expect((await waitForStatus(server.url, taskId, "completed", as(8))).status).toBe("completed");
  });
});

describe("2025-11-25: a plain call of another call's task", () => {
  it("answers at once when the task waits for a person this client cannot be asked", async ({ expect }) => {
    const key = `k-${crypto.randomUUID()}`;
    const taskId = await startTask(server.url, "deploy", DEPLOY, as(2), { [KEY]: key });
    await waitForStatus(server.url, taskId, "input_required", as(2));
    const reply = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 5,
        method: "tools/call",
        params: { name: "deploy", arguments: DEPLOY, _meta: { [KEY]: key } },
      },
      { headers: as(2) },
    );
    const messages = Array.isArray(reply.body) ? reply.body : [reply.body];
    expect(messages.find((m: { id?: number }) => m.id === 5)).toMatchObject({
      result: { structuredContent: { taskId, status: "input_required" } },
    });
  });
});

describe("2025-11-25: cancelling a plain call", () => {
  it("stops the call's task when the SDK v1 Client's AbortSignal fires", async ({ expect }) => {
    const client = new Client({ name: "abort", version: "1" }, { capabilities: {} });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: as(3) } }),
    );
    const controller = new AbortController();
    let progressed!: () => void;
    const firstProgress = new Promise<void>((resolve) => (progressed = resolve));
    const call = client.callTool({ name: "countdown", arguments: { seconds: 120 } }, undefined, {
      signal: controller.signal,
      onprogress: () => progressed(),
    });
    await firstProgress;
    controller.abort("the user stopped it");
    await expect(call).rejects.toThrow();
    await vi.waitFor(async () => expect(await tasksOf(3)).toMatchObject([{ status: "cancelled" }]), settle);
    await client.close();
  });

  it("stops the call's task on a raw notifications/cancelled sent while the call is open", async ({ expect }) => {
    const sessionId = await rawSession(4);
    const headers = {
      ...as(4),
      "Mcp-Session-Id": sessionId,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    };
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "countdown", arguments: { seconds: 120 }, _meta: { progressToken: "c" } },
    });
    const stream = await openSse(`${server.url}/mcp`, { method: "POST", headers, body });
    for (
      let event = await stream.next();
      event && !event.data.includes("notifications/progress");
      event = await stream.next()
    );
    const [task] = await tasksOf(4);
    // Another request id of the session names nothing open: the call goes on.
    expect((await rpc(server.url, cancelled(8), { headers })).status).toBe(202);
    expect((await getTask(server.url, task?.taskId ?? "", as(4))).status).toBe("working");
    expect((await rpc(server.url, cancelled(7), { headers })).status).toBe(202);
    await vi.waitFor(async () => expect(await tasksOf(4)).toMatchObject([{ status: "cancelled" }]), settle);
    stream.drop();
  });

  it("routes a long string request id, and answers a malformed one 202 without touching anything", async ({
    expect,
  }) => {
    const sessionId = await rawSession(7);
    const headers = {
      ...as(7),
      "Mcp-Session-Id": sessionId,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    };
    const id = "r".repeat(20_000);
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id,
      method: "tools/call",
      params: { name: "countdown", arguments: { seconds: 120 }, _meta: { progressToken: "c" } },
    });
    const stream = await openSse(`${server.url}/mcp`, { method: "POST", headers, body });
    for (
      let event = await stream.next();
      event && !event.data.includes("notifications/progress");
      event = await stream.next()
    );
    for (const hostile of [{ x: 1 }, null, "r".repeat(19_999), 1e308])
      expect((await rpc(server.url, cancelled(hostile), { headers })).status).toBeLessThan(500);
    expect(await tasksOf(7)).toMatchObject([{ status: "working" }]);
    expect((await rpc(server.url, cancelled(id), { headers })).status).toBe(202);
    await vi.waitFor(async () => expect(await tasksOf(7)).toMatchObject([{ status: "cancelled" }]), settle);
    stream.drop();
  });

  it("leaves the task alone on a notifications/cancelled sent after the call was answered", async ({ expect }) => {
    const sessionId = await rawSession(5);
    const headers = { ...as(5), "Mcp-Session-Id": sessionId };
    // deploy asks at once, and this session cannot be asked: the call answers with the link that shows the question.
    const reply = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "deploy", arguments: DEPLOY } },
      { headers },
    );
    const messages = Array.isArray(reply.body) ? reply.body : [reply.body];
    expect(messages.find((m: { id?: number }) => m.id === 3)).toMatchObject({
      result: { structuredContent: { status: "input_required" } },
    });
    // As OpenCode does after every answer.
    expect((await rpc(server.url, cancelled(3), { headers })).status).toBe(202);
    expect(await tasksOf(5)).toMatchObject([{ status: "input_required" }]);
  });

  it("does not stop another call's task found by its key", async ({ expect }) => {
    const key = `k-${crypto.randomUUID()}`;
    const taskId = await startTask(server.url, "countdown", { seconds: 120 }, as(6), { [KEY]: key });
    const sessionId = await rawSession(6);
    const headers = {
      ...as(6),
      "Mcp-Session-Id": sessionId,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
    };
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "countdown", arguments: { seconds: 120 }, _meta: { [KEY]: key } },
    });
    const stream = await openSse(`${server.url}/mcp`, { method: "POST", headers, body });
    // Its priming event: the call follows the task (whose progress goes to the call that started it).
    expect((await stream.next())?.data).toBe("");
    expect((await rpc(server.url, cancelled(9), { headers })).status).toBe(202);
    stream.drop();
    await countsOn(taskId, as(6), 2);
    await rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tasks/cancel", params: { taskId } }, { headers: as(6) });
  });
});
