// Both adoption lanes in one Worker (agents#2135's setup; test/fixtures/adopter-dual): createMcpHandler
// at /mcp for 2026-07-28 clients, an McpAgent at /mcp-legacy for 2025-11-25 ones (the SDK v1 Client
// with experimental.tasks), one engine behind both, principals from bearer tokens. A task created on
// one lane is read, followed and cancelled on the other by the same principal, and by no other; a
// question of a task is answered through POST /tasks/{id}/input or the legacy session's elicitation.
import { afterAll, describe, expect, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, ElicitRequestSchema, McpError } from "@modelcontextprotocol/sdk/types.js";
import { adopterConfig } from "./support/adopter";
import { ownServer } from "./support/dev-server";
import { errorOf, getTask, modern, startTask, TASKS } from "./support/modern";
import { taskResponse } from "./support/tasks";
import { upstreamApi } from "./support/upstream-api";
import { until } from "../until";

const server = ownServer(async () => ({ config: await adopterConfig("test/fixtures/adopter-dual") }));
const ALICE = "alice-token";
const BOB = "bob-token";
const LEGACY_TASKS = { tasks: { list: {}, cancel: {}, requests: {} } };
const clients: Client[] = [];
const ALICE_KEY = `up-alice-${crypto.randomUUID()}`;
const BOB_KEY = `up-bob-${crypto.randomUUID()}`;
const upstream = upstreamApi([ALICE_KEY, BOB_KEY]);

afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
});

/** An SDK v1 client on the McpAgent lane, as `token`'s holder; `elicitation` answers a task's questions. */
async function legacy(
  token: string,
  answer?: Record<string, boolean>,
  headers: Record<string, string> = {},
): Promise<Client> {
  const capabilities = answer ? { ...LEGACY_TASKS, elicitation: {} } : LEGACY_TASKS;
  const client = new Client({ name: "dual-lane-legacy", version: "1" }, { capabilities });
  if (answer) client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "accept", content: answer }));
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp-legacy`), {
      requestInit: { headers: { Authorization: `Bearer ${token}`, ...headers } },
    }),
  );
  await client.listTools();
  clients.push(client);
  return client;
}

/** Runs `name` through callToolStream; `onTask` runs once the task exists. Ends with the result's text or the error. */
async function stream(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  onTask?: (id: string) => Promise<void>,
) {
  let taskId = "";
  let outcome = "";
  for await (const message of client.experimental.tasks.callToolStream(
    { name, arguments: args },
    CallToolResultSchema,
  )) {
    if (message.type === "taskCreated") {
      taskId = message.task.taskId;
      await onTask?.(taskId);
    }
    if (message.type === "result")
      outcome = message.result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    if (message.type === "error") outcome = `error: ${message.error.message}`;
  }
  return { taskId, outcome };
}

const codeOf = (promise: Promise<unknown>) =>
  promise.then(
    () => "answered",
    (error: unknown) => (error instanceof McpError ? error.code : String(error)),
  );

describe("a task created on one lane, by the same principal on the other", () => {
  it("created on /mcp (2026-07-28), read, followed and cancelled on /mcp-legacy (SDK v1)", async () => {
    const client = await legacy(ALICE);
    const short = await startTask(server.url, "countdown", { seconds: 2 }, { token: ALICE });
    expect((await client.experimental.tasks.getTask(short)).status).toBe("working");
    expect((await client.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toContain(short);
    // tasks/result follows it to its end on the legacy lane.
    const result = await client.experimental.tasks.getTaskResult(short, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "Countdown of 2 s finished." }]);

    const long = await startTask(server.url, "countdown", { seconds: 60 }, { token: ALICE });
    expect((await client.experimental.tasks.cancelTask(long)).status).toBe("cancelled");
    expect((await getTask(server.url, long, { token: ALICE }))["status"]).toBe("cancelled");
  });

  it("created on /mcp-legacy (callToolStream), read and cancelled on /mcp", async () => {
    const client = await legacy(ALICE);
    const { taskId, outcome } = await stream(client, "countdown", { seconds: 60 }, async (id) => {
      expect((await getTask(server.url, id, { token: ALICE }))["status"]).toBe("working");
      const cancelled = await modern(server.url, "tasks/cancel", { taskId: id }, { capabilities: TASKS, token: ALICE });
      expect(cancelled.status).toBe(200);
    });
    expect(outcome).toMatch(/^error: .*cancelled/);
    expect((await getTask(server.url, taskId, { token: ALICE }))["status"]).toBe("cancelled");
  });
});

describe("another principal", () => {
  it("can neither read, list nor cancel the task, on either lane", async () => {
    const alice = await legacy(ALICE);
    const bob = await legacy(BOB);
    await stream(alice, "countdown", { seconds: 60 }, async (taskId) => {
      expect(await codeOf(bob.experimental.tasks.getTask(taskId))).toBe(-32602);
      expect(await codeOf(bob.experimental.tasks.cancelTask(taskId))).toBe(-32602);
      expect(await codeOf(bob.experimental.tasks.getTaskResult(taskId, CallToolResultSchema))).toBe(-32602);
      expect((await bob.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).not.toContain(taskId);
      expect(errorOf(await modern(server.url, "tasks/get", { taskId }, { capabilities: TASKS, token: BOB })).code).toBe(
        -32602,
      );
      expect((await taskResponse(server.url, taskId, { Authorization: `Bearer ${BOB}` })).status).toBe(404);
      // Still Alice's, still running: she ends it.
      expect((await alice.experimental.tasks.getTask(taskId)).status).toBe("working");
      await alice.experimental.tasks.cancelTask(taskId);
    });
  });
});

describe("a question of a task started on the legacy lane", () => {
  it("is answered through POST /tasks/{id}/input while the client waits in tasks/result", async () => {
    const client = await legacy(ALICE);
    const { outcome } = await stream(client, "approve", { change: "the schema" }, async (taskId) => {
      await vi.waitFor(async () => {
        expect((await client.experimental.tasks.getTask(taskId)).status).toBe("input_required");
      }, until(100));
      const answered = await fetch(`${server.url}/tasks/${taskId}/input`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${ALICE}` },
        body: JSON.stringify({ decision: { action: "accept", content: { approve: true } } }),
      });
      expect(answered.status).toBe(200);
    });
    expect(outcome).toBe("Approved the schema.");
  });

  it("is asked on tasks/result of a client that declared elicitation, and its answer goes to the task", async () => {
    const client = await legacy(ALICE, { approve: false });
    const { outcome } = await stream(client, "approve", { change: "the index" });
    expect(outcome).toBe("Not approved: the index.");
  });
});

describe("examples/dual-lane (no auth: loopback only)", () => {
  const example = ownServer(async () => ({ config: await adopterConfig("examples/dual-lane") }));

  it("keeps echo plain on both lanes; a countdown started on /mcp-legacy is read on /mcp while it runs and after", async () => {
    const client = new Client({ name: "dual-lane-example", version: "1" }, { capabilities: LEGACY_TASKS });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${example.url}/mcp-legacy`)));
    clients.push(client);
    await client.listTools();
    expect((await client.callTool({ name: "echo", arguments: { text: "legacy" } })).content).toEqual([
      { type: "text", text: "legacy" },
    ]);
    const echoed = await modern(example.url, "tools/call", { name: "echo", arguments: { text: "modern" } });
    expect(JSON.parse(echoed.text)).toMatchObject({ result: { content: [{ type: "text", text: "modern" }] } });
    const { taskId, outcome } = await stream(client, "countdown", { seconds: 2 }, async (id) => {
      expect((await getTask(example.url, id))["status"]).toBe("working");
    });
    expect(outcome).toBe("Countdown of 2 s finished.");
    expect(await getTask(example.url, taskId)).toMatchObject({
      status: "completed",
      result: { content: [{ type: "text", text: "Countdown of 2 s finished." }] },
    });
  });
});

describe("a durable tool acting for its caller on the McpAgent lane", () => {
  it("gets the session's caller key (durableTasks' caller) on every step, and never another principal's", async () => {
    const alice = await legacy(ALICE, { more: true }, { "X-Upstream-Key": ALICE_KEY });
    const bob = await legacy(BOB, { more: true }, { "X-Upstream-Key": BOB_KEY });
    const [mine, theirs] = await Promise.all([
      stream(alice, "upstream_report", { api: upstream.url, pauseSeconds: 1 }),
      stream(bob, "upstream_report", { api: upstream.url, pauseSeconds: 0 }),
    ]);
    expect(mine.outcome).toBe("Read page 1 and page 2.");
    expect(theirs.outcome).toBe("Read page 1 and page 2.");
    const keysOf = (taskId: string) => upstream.calls.filter((call) => call.task === taskId).map((call) => call.key);
    expect(keysOf(mine.taskId)).toEqual([ALICE_KEY, ALICE_KEY]);
    expect(keysOf(theirs.taskId)).toEqual([BOB_KEY, BOB_KEY]);
    // Its owner's reads on either lane show no key.
    expect(JSON.stringify(await alice.experimental.tasks.getTask(mine.taskId))).not.toContain(ALICE_KEY);
    expect(JSON.stringify(await getTask(server.url, mine.taskId, { token: ALICE }))).not.toContain(ALICE_KEY);
  });
});

describe("task links and batches on the McpAgent lane", () => {
  it("reads a task's task:// link on the session that received it", async () => {
    const client = await legacy(ALICE);
    const taskId = await startTask(server.url, "countdown", { seconds: 1 }, { token: ALICE });
    const read = await client.readResource({ uri: `task://${taskId}` });
    expect(JSON.stringify(read.contents)).toContain(taskId);
  });

  it("refuses a batch holding a task request with words, not Method not found", async () => {
    const client = await legacy(ALICE);
    const { transport } = client;
    if (!(transport instanceof StreamableHTTPClientTransport) || transport.sessionId === undefined)
      throw new Error("the legacy client has no session");
    const response = await fetch(`${server.url}/mcp-legacy`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
        Authorization: `Bearer ${ALICE}`,
        "Mcp-Session-Id": transport.sessionId,
        "Mcp-Protocol-Version": "2025-11-25",
      },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        { jsonrpc: "2.0", id: 2, method: "tasks/list", params: {} },
      ]),
    });
    expect(response.status).toBe(400);
    const body: unknown = await response.json();
    expect(body).toMatchObject({ error: { code: -32600, message: expect.stringContaining("batches are not served") } });
  });
});
