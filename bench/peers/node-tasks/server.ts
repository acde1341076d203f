/**
 * Peer for `npm run bench -- peers`: the SDK 1.x `experimental.tasks` server a user could run on
 * one Node process instead — `McpServer` with the SDK's `InMemoryTaskStore` and
 * `InMemoryTaskMessageQueue`, stateless Streamable HTTP on `node:http` (a fresh server and
 * transport per request, sharing the store), with `echo` and a task-capable `countdown`.
 *
 * Run: `node bench/peers/node-tasks/server.ts [port]` (0 or none: any free port); it prints
 * `listening on <port>` once it accepts requests.
 */
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  InMemoryTaskMessageQueue,
  InMemoryTaskStore,
} from "@modelcontextprotocol/sdk/experimental/tasks/stores/in-memory.js";
import { z } from "zod";

/**
 * How often the SDK's built-in `tasks/result` handler re-reads a running task (its default is
 * 1000 ms). At 100 ms a waiting client learns of the end within 0.1 s: a generous setting for this
 * peer, so the comparison is with the in-memory server at its quickest, not at its default.
 */
const POLL_INTERVAL_MS = 100;

const taskStore = new InMemoryTaskStore();
const taskMessageQueue = new InMemoryTaskMessageQueue();

function buildServer(): McpServer {
  const server = new McpServer(
    { name: "peer-node-tasks", version: "1.0.0" },
    {
      capabilities: { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } },
      taskStore,
      taskMessageQueue,
    },
  );
  server.registerTool(
    "echo",
    { description: "Returns the given text at once.", inputSchema: { text: z.string().max(10_000) } },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  server.experimental.tasks.registerToolTask(
    "countdown",
    {
      description: "Counts down the given number of seconds, reporting progress every second.",
      inputSchema: { seconds: z.number().int().min(1).max(86_400) },
      execution: { taskSupport: "optional" },
    },
    {
      async createTask({ seconds }, extra) {
        const task = await extra.taskStore.createTask({
          ttl: extra.taskRequestedTtl ?? 3_600_000,
          pollInterval: POLL_INTERVAL_MS,
        });
        const progressToken = extra._meta?.progressToken;
        // The job outlives this request (and its per-request server), so it writes to the shared
        // store and message queue directly, as the SDK's own example does.
        void runCountdown(task.taskId, seconds, progressToken).catch((error: unknown) =>
          console.error(`countdown ${task.taskId}:`, error),
        );
        return { task };
      },
      async getTask(_args, extra) {
        const task = await extra.taskStore.getTask(extra.taskId);
        if (!task) throw new Error(`Task ${extra.taskId} not found`);
        return task;
      },
      async getTaskResult(_args, extra) {
        const result = await extra.taskStore.getTaskResult(extra.taskId);
        return { content: [], ...result };
      },
    },
  );
  return server;
}

/** One progress notification per second (queued for `tasks/result`, the SDK's channel for a task's messages), then the result. */
async function runCountdown(
  taskId: string,
  seconds: number,
  progressToken: string | number | undefined,
): Promise<void> {
  const startedAt = Date.now();
  for (let elapsed = 1; elapsed <= seconds; elapsed++) {
    await new Promise((resolve) => setTimeout(resolve, startedAt + elapsed * 1000 - Date.now()));
    if (progressToken !== undefined) {
      const params = {
        progressToken,
        progress: elapsed,
        total: seconds,
        message: `${seconds - elapsed} s left`,
        _meta: { "io.modelcontextprotocol/related-task": { taskId } },
      };
      await taskMessageQueue.enqueue(taskId, {
        type: "notification",
        message: { jsonrpc: "2.0", method: "notifications/progress", params },
        timestamp: Date.now(),
      });
    }
  }
  await taskStore.storeTaskResult(taskId, "completed", {
    content: [{ type: "text", text: `Countdown of ${seconds} s finished.` }],
  });
}

const http = createServer((req, res) => {
  if (req.url === "/health" && req.method === "GET") {
    res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ ok: true }));
    return;
  }
  if (req.url !== "/mcp") {
    res.writeHead(404).end();
    return;
  }
  const server = buildServer();
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on("close", () => {
    void transport.close().catch(() => undefined); // teardown of a finished request; nothing to report
    void server.close().catch(() => undefined);
  });
  server
    .connect(transport)
    .then(() => transport.handleRequest(req, res))
    .catch((error: unknown) => {
      console.error("request failed:", error);
      if (!res.headersSent)
        res
          .writeHead(500, { "Content-Type": "application/json" })
          .end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32603, message: "Internal error" } }));
    });
});

http.keepAliveTimeout = 60_000;
http.listen(Number(process.argv[2] ?? 0), "127.0.0.1", () => {
  const address = http.address();
  console.log(`listening on ${typeof address === "object" && address ? address.port : "?"}`);
});
