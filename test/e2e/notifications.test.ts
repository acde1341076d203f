// Who hears which message of a task (docs/streams.md, "Who hears what"), seen by the SDK v1 Client
// on the real runtime: any client gets a task-augmented call's progress while the task runs (on its
// session's GET stream, or on the task's tasks/result stream from that session while one is open:
// each value once), a client that declared tasks gets every status once, and a client that never
// declared tasks (or a stateless request) gets nothing task-shaped.
import { afterAll, beforeAll, describe, expect as expectIn, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  TaskStatusNotificationSchema,
  type CallToolResult,
} from "@modelcontextprotocol/sdk/types.js";
import { sharedServer } from "./support/dev-server";
import { LONG_INLINE_VARS } from "./support/server-settings";
import { rpc } from "./support/mcp";
import { openSse, type SseReader } from "./support/sse-reader";
import { until } from "../until";

// A long inline wait: its plain calls (2 s) answer inline (support/server-settings.ts).
const server = sharedServer(LONG_INLINE_VARS);
const settle = until(100);

interface Status {
  taskId: string;
  status: string;
  statusMessage?: string;
  lastUpdatedAt: string;
}

/** An SDK client that records every notifications/tasks/status and every error it reports. */
async function connect(capabilities: Record<string, unknown>) {
  const client = new Client({ name: "notifications", version: "1" }, { capabilities });
  const statuses: Status[] = [];
  const errors: Error[] = [];
  client.setNotificationHandler(
    TaskStatusNotificationSchema,
    (notification) => void statuses.push(notification.params),
  );
  client.onerror = (error) => void errors.push(error);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  const of = (taskId: string) => statuses.filter((s) => s.taskId === taskId);
  return { client, statuses, errors, of };
}

type Connected = Awaited<ReturnType<typeof connect>>;

/** A task-augmented countdown through callToolStream: its id and how its stream went. */
async function streamTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  onProgress?: (value: number) => void,
) {
  const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, {
    task: { ttl: 60_000 },
    ...(onProgress && { onprogress: (p: { progress: number }) => onProgress(p.progress) }),
  });
  let taskId = "";
  let result: CallToolResult | undefined;
  const kinds: string[] = [];
  for await (const message of stream) {
    kinds.push(message.type === "taskStatus" ? `status:${message.task.status}` : message.type);
    if (message.type === "taskCreated") taskId = message.task.taskId;
    if (message.type === "result") result = message.result as CallToolResult;
    if (message.type === "error") throw message.error;
  }
  return { taskId, result, kinds };
}

/** Proves the client's GET stream is open: a first task's completed status has reached it. */
async function warmUp(connected: Connected): Promise<void> {
  const { taskId } = await streamTask(connected.client, "countdown", { seconds: 1 });
  await vi.waitFor(() => expectIn(connected.of(taskId).some((s) => s.status === "completed")).toBe(true), settle);
}

const TASKS = { tasks: { list: {}, cancel: {}, requests: {} } };
const unique = (statuses: Status[]) => new Set(statuses.map((s) => JSON.stringify(s))).size === statuses.length;

describe("a client that declared tasks", () => {
  let connected: Connected;
  beforeAll(async () => {
    connected = await connect(TASKS);
    await warmUp(connected);
  });
  afterAll(async () => connected?.client.close());

  it("sees a task-augmented call's progress in callToolStream's onprogress while the task runs, each value once", async ({
    expect,
  }) => {
    const order: string[] = [];
    const stream = connected.client.experimental.tasks.callToolStream(
      { name: "batch_process", arguments: { items: 3, secondsPerItem: 0.6 } },
      CallToolResultSchema,
      {
        task: { ttl: 60_000 },
        onprogress: (p) => void order.push(`progress ${p.progress}`),
      },
    );
    let result: unknown;
    for await (const message of stream) {
      if (message.type === "taskStatus") order.push(`poll ${message.task.status}`);
      if (message.type === "result") result = message.result;
    }
    expect(result).toMatchObject({ structuredContent: { items: 3, checksum: 14 } });
    // The client polls tasks/get and calls tasks/result only once the task has ended, so only the
    // GET stream can carry progress while it runs: the first value came while the polls said working.
    expect(order.indexOf("progress 1")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("progress 1")).toBeLessThan(order.indexOf("poll completed"));
    await vi.waitFor(
      () => expect(order.filter((o) => o.startsWith("progress"))).toEqual(["progress 1", "progress 2", "progress 3"]),
      settle,
    );
    expect(connected.errors).toEqual([]);
  });

  it("gets each notifications/tasks/status of a task-augmented call once, through to completed", async ({ expect }) => {
    const { taskId } = await streamTask(connected.client, "countdown", { seconds: 2 });
    await vi.waitFor(() => expect(connected.of(taskId).map((s) => s.status)).toContain("completed"), settle);
    expect(unique(connected.of(taskId))).toBe(true);
    expect(connected.of(taskId).filter((s) => s.status === "completed")).toHaveLength(1);
  });

  it("gets each status of a plain call's task once (not on the call's stream and the GET stream both), and its progress on the call", async ({
    expect,
  }) => {
    const progress: number[] = [];
    const result = await connected.client.callTool({ name: "countdown", arguments: { seconds: 2 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
      timeout: 30_000,
    });
    expect(result.content).toEqual([{ type: "text", text: "Countdown of 2 s finished." }]);
    expect(progress).toEqual([1, 2]);
    const taskId =
      (result._meta?.["io.modelcontextprotocol/related-task"] as { taskId: string } | undefined)?.taskId ?? "";
    await vi.waitFor(() => expect(connected.of(taskId).map((s) => s.status)).toContain("completed"), settle);
    const statuses = connected.of(taskId);
    expect(statuses.map((s) => s.statusMessage)).toEqual(["Queued.", "Running.", "Completed."]);
    expect(connected.errors).toEqual([]);
  });
});

describe("a client that never declared tasks", () => {
  let connected: Connected;
  beforeAll(async () => {
    connected = await connect({});
  });
  afterAll(async () => connected?.client.close());

  it("gets a plain call's progress and result, and no task notification", async ({ expect }) => {
    const progress: number[] = [];
    const result = await connected.client.callTool({ name: "countdown", arguments: { seconds: 2 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
      timeout: 30_000,
    });
    expect(result.content).toEqual([{ type: "text", text: "Countdown of 2 s finished." }]);
    expect(progress).toEqual([1, 2]);
    expect(connected.statuses).toEqual([]);
    expect(connected.errors).toEqual([]);
  });

  it("sees a task-augmented call's progress in callToolStream's onprogress while the task runs, each value once", async ({
    expect,
  }) => {
    const order: string[] = [];
    const stream = connected.client.experimental.tasks.callToolStream(
      { name: "batch_process", arguments: { items: 3, secondsPerItem: 0.6 } },
      CallToolResultSchema,
      {
        task: { ttl: 60_000 },
        onprogress: (p) => void order.push(`progress ${p.progress}`),
      },
    );
    for await (const message of stream) if (message.type === "taskStatus") order.push(`poll ${message.task.status}`);
    expect(order.indexOf("progress 1")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("progress 1")).toBeLessThan(order.indexOf("poll completed"));
    await vi.waitFor(
      () => expect(order.filter((o) => o.startsWith("progress"))).toEqual(["progress 1", "progress 2", "progress 3"]),
      settle,
    );
    expect(connected.statuses).toEqual([]);
    expect(connected.errors).toEqual([]);
  });

  it("gets no task notification for a task-augmented call either, and its result through tasks/result", async ({
    expect,
  }) => {
    const run = await streamTask(connected.client, "countdown", { seconds: 2 });
    expect(run.result?.content).toEqual([{ type: "text", text: "Countdown of 2 s finished." }]);
    // Statuses are published as the task commits them, before its result: none came.
    expect(connected.statuses).toEqual([]);
    expect(connected.errors).toEqual([]);
  });
});

describe("a stateless request", () => {
  it("a plain call's SSE stream carries its progress (no related-task _meta) and the response, nothing task-shaped", async ({
    expect,
  }) => {
    const reply = await rpc(server.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "countdown", arguments: { seconds: 2 }, _meta: { progressToken: "p" } },
    });
    const messages = reply.body as { method?: string; params?: Record<string, unknown>; result?: unknown }[];
    expect(messages.map((m) => m.method ?? "response")).toEqual([
      "notifications/progress",
      "notifications/progress",
      "response",
    ]);
    expect(messages.slice(0, 2).map((m) => m.params)).toEqual([
      { progressToken: "p", progress: 1, total: 2, message: "1 s left" },
      { progressToken: "p", progress: 2, total: 2, message: "0 s left" },
    ]);
  });
});

/** The progress values and methods on a raw SSE stream until `stop` says so (or the stream ends). */
async function collect(
  reader: SseReader,
  into: { method?: string; id?: unknown; params?: Record<string, unknown> }[],
  stop: () => boolean,
): Promise<void> {
  while (!stop()) {
    const event = await reader.next(20_000);
    if (!event) return;
    if (event.data !== "") into.push(JSON.parse(event.data) as { method?: string; params?: Record<string, unknown> });
  }
}

describe("one stream per message of a task, in its session", () => {
  for (const [name, capabilities] of [
    ["a client that never declared tasks", {}],
    ["a client that declared tasks", { tasks: {} }],
  ] as const) {
    it(`${name}: progress goes to the GET stream, then to a tasks/result opened from the session, each value on exactly one`, async ({
      expect,
    }) => {
      const init = await rpc(server.url, {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities, clientInfo: { name: "raw", version: "1" } },
      });
      const headers = {
        "Mcp-Session-Id": init.headers.get("Mcp-Session-Id") ?? "",
        "MCP-Protocol-Version": "2025-11-25",
      };
      const get = await openSse(`${server.url}/mcp`, { headers: { ...headers, Accept: "text/event-stream" } });
      const onGet: { method?: string; params?: Record<string, unknown> }[] = [];
      await get.next(); // the priming event: the stream is attached
      const created = await rpc(
        server.url,
        {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: {
            name: "batch_process",
            arguments: { items: 6, secondsPerItem: 0.5 },
            task: {},
            _meta: { progressToken: "bp" },
          },
        },
        { headers },
      );
      const taskId = (created.body as { result: { task: { taskId: string } } }).result.task.taskId;
      const progressOn = (messages: typeof onGet) =>
        messages.filter((m) => m.method === "notifications/progress").map((m) => Number(m.params?.["progress"]));
      await collect(get, onGet, () => progressOn(onGet).length >= 2);
      const result = await openSse(`${server.url}/mcp`, {
        method: "POST",
        headers: { ...headers, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tasks/result", params: { taskId } }),
      });
      const onResult: (typeof onGet)[number][] = [];
      await collect(result, onResult, () => onResult.some((m) => "result" in m || "error" in m));
      // Whatever the GET stream had by then; it gets nothing more of this task's progress.
      await collect(get, onGet, () => progressOn(onGet).length + progressOn(onResult).length >= 6).catch(
        () => undefined,
      );
      get.drop();
      expect([...progressOn(onGet), ...progressOn(onResult)]).toEqual([1, 2, 3, 4, 5, 6]);
      expect(progressOn(onResult).length).toBeGreaterThan(0);
      const related = onGet
        .concat(onResult)
        .filter((m) => m.method === "notifications/progress")
        .map(
          (m) => (m.params?.["_meta"] as Record<string, unknown> | undefined)?.["io.modelcontextprotocol/related-task"],
        );
      expect(related.every((r) => ("tasks" in capabilities ? r !== undefined : r === undefined))).toBe(true);
      const statuses = onGet.concat(onResult).filter((m) => m.method === "notifications/tasks/status");
      if ("tasks" in capabilities)
        expect(new Set(statuses.map((m) => JSON.stringify(m.params))).size).toBe(statuses.length);
      else expect(statuses).toEqual([]);
    });
  }
});
