// examples/mcp-agent on the real runtime: an `agents` McpAgent Worker (SDK v1 McpServer, a Durable
// Object per session) that adopted durable tasks. The SDK v1 Client with experimental.tasks gets a
// task for `countdown` (progress and notifications/tasks/status on its session's GET stream, then
// the result), tasks/list and tasks/cancel; `echo` stays plain; a plain call gets the hybrid answer;
// a SIGKILL mid-task loses and repeats nothing; with no auth, only loopback is served.
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema, TaskStatusNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { adopterConfig } from "./support/adopter";
import { countdownSurvivesKill } from "./support/countdown-crash";
import { ownServer } from "./support/dev-server";
import { rpc } from "./support/mcp";
import { getTask as taskDocument } from "./support/tasks";
import { failWithLogs } from "./support/wrangler-dev";
import { until } from "../until";
import { rawRequest } from "./support/raw-http";

// It kills and restarts its server, and lists the anonymous principal's tasks.
const server = ownServer(async () => ({
  config: await adopterConfig("examples/mcp-agent"),
  vars: { INLINE_WAIT_MS: "3000" },
}));
const withServerLogs = (error: unknown): never => failWithLogs(server, error);
const TASKS = { tasks: { list: {}, cancel: {}, requests: {} } };

interface Connected {
  client: Client;
  /** Each notifications/tasks/status the session's GET stream brought, by task. */
  statuses(taskId: string): string[];
  errors: Error[];
}

async function connect(): Promise<Connected> {
  const client = new Client({ name: "adopt-mcp-agent", version: "1" }, { capabilities: TASKS });
  const seen: { taskId: string; status: string }[] = [];
  const errors: Error[] = [];
  client.setNotificationHandler(TaskStatusNotificationSchema, (n) => void seen.push(n.params));
  client.onerror = (error) => void errors.push(error);
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  // callToolStream asks for a task only for tools tools/list showed with taskSupport.
  await client.listTools();
  return { client, statuses: (id) => seen.filter((s) => s.taskId === id).map((s) => s.status), errors };
}

/** A countdown through callToolStream: what the stream yielded, in order, and the progress heard meanwhile. */
async function streamCountdown(client: Client, seconds: number, onTask?: (taskId: string) => Promise<void>) {
  const order: string[] = [];
  let taskId = "";
  let text = "";
  const stream = client.experimental.tasks.callToolStream(
    { name: "countdown", arguments: { seconds } },
    CallToolResultSchema,
    { onprogress: (p) => void order.push(`progress ${p.progress}`) },
  );
  for await (const message of stream) {
    if (message.type === "taskCreated") {
      taskId = message.task.taskId;
      await onTask?.(taskId);
    }
    if (message.type === "taskStatus") order.push(`poll ${message.task.status}`);
    if (message.type === "result")
      text = message.result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
    if (message.type === "error") order.push(`error ${message.error.message}`);
  }
  return { taskId, order, text };
}

let session: Connected;
beforeAll(async () => {
  session = await connect();
  // The GET stream opens after initialize; a first task's completed status proves it is open.
  const { taskId } = await streamCountdown(session.client, 1);
  await vi.waitFor(() => {
    if (!session.statuses(taskId).includes("completed")) throw new Error("GET stream not open yet");
  }, until(100));
});
afterAll(async () => session?.client.close());

describe("discovery and plain tools", () => {
  it("tools/list shows echo, countdown with taskSupport, and the check-back tools; initialize the tasks capability", async ({
    expect,
  }) => {
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "echo",
      "countdown",
      "task_status",
      "task_result",
      "task_cancel",
      "task_input",
    ]);
    expect(tools.find((tool) => tool.name === "countdown")?.execution).toEqual({ taskSupport: "optional" });
    expect(tools.find((tool) => tool.name === "countdown")?.description).toMatch(/keeps running in the background/);
    expect(session.client.getServerCapabilities()?.tasks).toMatchObject({ requests: { tools: { call: {} } } });
  });

  it("echo stays a plain tool of the McpAgent", async ({ expect }) => {
    const result = await session.client.callTool({ name: "echo", arguments: { text: "hello there" } });
    expect(result.content).toEqual([{ type: "text", text: "hello there" }]);
  });
});

describe("2025-11-25 task clients (SDK v1 Client, experimental.tasks)", () => {
  it("callToolStream: a task, its progress and statuses on the session's GET stream, then the result", async ({
    expect,
  }) => {
    const { taskId, order, text } = await streamCountdown(session.client, 3);
    expect(text).toBe("Countdown of 3 s finished.");
    // Progress came while the polls still said working: only the GET stream can carry it then.
    expect(order.indexOf("progress 1")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("progress 1")).toBeLessThan(order.indexOf("poll completed"));
    await vi.waitFor(
      () => expect(order.filter((o) => o.startsWith("progress"))).toEqual(["progress 1", "progress 2", "progress 3"]),
      until(100),
    );
    await vi.waitFor(() => expect(session.statuses(taskId)).toContain("completed"), until(100));
    expect(session.statuses(taskId).filter((s) => s === "completed")).toHaveLength(1);
    expect(session.errors).toEqual([]);
  });

  it("tasks/list and tasks/get show the caller's task; tasks/cancel stops it", async ({ expect }) => {
    const { taskId, order } = await streamCountdown(session.client, 60, async (id) => {
      const { tasks } = await session.client.experimental.tasks.listTasks();
      expect(tasks.map((task) => task.taskId)).toContain(id);
      expect((await session.client.experimental.tasks.getTask(id)).status).toBe("working");
      await session.client.experimental.tasks.cancelTask(id);
    });
    expect(order.at(-1)).toMatch(/^error .*cancelled/);
    expect((await taskDocument(server.url, taskId)).status).toBe("cancelled");
    await vi.waitFor(() => expect(session.statuses(taskId)).toContain("cancelled"), until(100));
  });

  it("a plain call (no task asked) answers inline when quick, with its progress on the call", async ({ expect }) => {
    const progress: number[] = [];
    const result = await session.client
      .callTool({ name: "countdown", arguments: { seconds: 1 } }, undefined, {
        onprogress: (p) => void progress.push(p.progress),
      })
      .catch(withServerLogs);
    expect(result.content).toEqual([{ type: "text", text: "Countdown of 1 s finished." }]);
    expect(progress).toEqual([1]);
  });
});

describe("who may call", () => {
  it("a session agents never started is unknown (404), as agents answers it", async ({ expect }) => {
    const reply = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "tasks/list", params: {} },
      { headers: { "Mcp-Session-Id": "0".repeat(64), "MCP-Protocol-Version": "2025-11-25" } },
    );
    expect(reply.status).toBe(404);
    expect(reply.body).toMatchObject({ error: { code: -32001 } });
  });

  it("with no principal configured, a request not addressed to loopback is refused, naming the option to pass", async ({
    expect,
  }) => {
    // rawRequest: fetch will not send another Host than the URL's.
    const reply = await rawRequest(`${server.url}/tasks/0123456789abcdef0123456789abcdef`, {
      headers: { Host: "tasks.example.com" },
    });
    const answer = { status: reply.status, body: reply.text };
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ error: "principal_not_configured" });
  });
});

describe("a crash of wrangler dev mid-task", () => {
  it("finishes the countdown after a restart on the same state, each second reported once", async ({ expect }) => {
    let taskId = "";
    const stream = session.client.experimental.tasks.callToolStream(
      { name: "countdown", arguments: { seconds: 6 } },
      CallToolResultSchema,
    );
    for await (const message of stream) {
      if (message.type !== "taskCreated") continue;
      taskId = message.task.taskId;
      break;
    }
    await countdownSurvivesKill(server, taskId, 6);
    // A new session after the restart reads the finished task's result through tasks/result.
    const after = await connect();
    try {
      const result = await after.client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
      expect(result.content).toEqual([{ type: "text", text: "Countdown of 6 s finished." }]);
    } finally {
      await after.client.close();
    }
  });
});
