/**
 * An `agents` Worker as most public Cloudflare MCP servers are still written: an SDK v1
 * (`@modelcontextprotocol/sdk`) McpServer built per request, passed to `createMcpHandler(server)`
 * (deprecated in agents 0.32, still served; `createLegacyMcpHandler(server)` is the same lane).
 * `countdown` is a durable task (mcp-task-worker): 2025-11-25 clients that ask for a task get one,
 * others the result inline when quick, else a link and check-back tools.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { createMcpHandler } from "agents/mcp";
import { defineTool, durableTasks } from "mcp-task-worker/agents";
import { sdkV1Tasks } from "mcp-task-worker/mcp-agent";
import * as z from "zod";

export { PrincipalObject, TaskObject } from "mcp-task-worker/agents";

const countdown = defineTool({
  name: "countdown",
  description: "Counts down the given number of seconds, reporting progress every second.",
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

// The engine, once, at module load; the SDK v1 lane over it.
const tasks = durableTasks({ tools: [countdown] });
const lane = sdkV1Tasks(tasks);

function createServer(): McpServer {
  // The cfworker validator: workerd cannot run ajv (the wrangler.jsonc alias leaves it out).
  const server = new McpServer(
    { name: "sdk-v1-handler-tasks", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );
  server.registerTool(
    "echo",
    { description: "Returns the given text at once.", inputSchema: { text: z.string().max(10_000) } },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return lane.register(server);
}

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === "/health") return Response.json({ ok: true });
    // A server per request (an SDK v1 server connects to one transport), the wrapper applied per request.
    return lane.fetch(createMcpHandler(createServer()))(request, env, ctx);
  },
  queue: tasks.queue,
} satisfies ExportedHandler;
