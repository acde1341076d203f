/**
 * An `agents` Worker with durable tasks: the `echo` and `countdown` tools on `agents`' stateless
 * `createMcpHandler` with an SDK v2 (`@modelcontextprotocol/server`) McpServer per request, plus a
 * bare `GET /health`. `countdown` is a durable task (mcp-task-worker): 2026-07-28 clients with the
 * Tasks extension get a task, others the result inline when quick, else a link and check-back tools.
 * Its callers can subscribe to their tasks' status changes (the Events extension: poll, push, webhook).
 */
import { McpServer } from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp/server";
import { defineTool, durableTasks, withEvents } from "mcp-task-worker/agents";
import * as z from "zod";

export { EventLogObject, PrincipalObject, TaskObject } from "mcp-task-worker/agents";

const countdown = defineTool({
  name: "countdown",
  description: "Counts down the given number of seconds, reporting progress every second.",
  // A raw zod shape, as server.registerTool takes it: listed exactly as the SDK lists it.
  inputSchema: { seconds: z.number().int().min(1).max(86_400) },
  taskSupport: "optional",
  async run({ seconds }, job) {
    // Memoized: a run resumed after a crash keeps the first schedule and repeats no second.
    const startedAt = await job.step("started", () => Date.now());
    for (let elapsed = 1; elapsed <= seconds; elapsed++) {
      await job.sleepUntil(startedAt + elapsed * 1000);
      await job.progress(elapsed, seconds, `${seconds - elapsed} s left`);
    }
    return `Countdown of ${seconds} s finished.`;
  },
});

// The Events extension with the engine's own `task.status` (docs/events.md).
const tasks = durableTasks({ tools: [countdown], events: withEvents([]) });

function buildServer(): McpServer {
  const server = new McpServer({ name: "create-mcp-handler-tasks", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Returns the given text at once.", inputSchema: z.object({ text: z.string().max(10_000) }) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return tasks.register(server);
}

const mcp = tasks.fetch(createMcpHandler(buildServer));

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === "/health") return Response.json({ ok: true });
    return mcp(request, env, ctx);
  },
  queue: tasks.queue,
} satisfies ExportedHandler;
