/**
 * Both `agents` lanes in one Worker, on one durable task engine (cloudflare/agents#2135's setup):
 * `createMcpHandler` with an SDK v2 McpServer at /mcp for 2026-07-28 clients, and the McpAgent
 * kept for older clients at /mcp-legacy (SDK v1 McpServer, a Durable Object per session). A task
 * started on one lane is read, followed and cancelled on the other by the same caller.
 */
import { McpServer as LegacyMcpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { McpServer } from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp/server";
import { defineTool, durableTasks } from "mcp-task-worker/agents";
import { mcpAgentTasks, TaskMcpAgent } from "mcp-task-worker/mcp-agent";
import * as z from "zod";

export { PrincipalObject, TaskObject } from "mcp-task-worker/agents";

const countdown = defineTool({
  name: "countdown",
  description: "Counts down the given number of seconds, reporting progress every second.",
  inputSchema: z.object({ seconds: z.number().int().min(1).max(86_400) }),
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

// One engine for both lanes. With auth, pass principal: (request, env, ctx) => ... here, once.
const tasks = durableTasks({ tools: [countdown] });
const agentTasks = mcpAgentTasks(tasks);

const echo = { description: "Returns the given text at once.", inputSchema: { text: z.string().max(10_000) } };

function buildServer(): McpServer {
  const server = new McpServer({ name: "dual-lane-tasks", version: "1.0.0" });
  server.registerTool("echo", { ...echo, inputSchema: z.object(echo.inputSchema) }, async ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  return tasks.register(server);
}

export class LegacyMcpAgent extends TaskMcpAgent {
  server = new LegacyMcpServer(
    { name: "dual-lane-tasks", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );

  async init(): Promise<void> {
    this.server.registerTool("echo", echo, async ({ text }) => ({ content: [{ type: "text", text }] }));
    agentTasks.register(this.server);
  }
}

const mcp = tasks.fetch(createMcpHandler(buildServer));
const legacy = agentTasks.serve(LegacyMcpAgent, "/mcp-legacy", { binding: "MCP_OBJECT" });

export default {
  fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (pathname === "/health") return Response.json({ ok: true });
    if (pathname === "/mcp-legacy") return legacy.fetch(request, env, ctx);
    // /mcp, and the plain HTTP view of tasks (/tasks/...) for both lanes.
    return mcp(request, env, ctx);
  },
  queue: tasks.queue,
} satisfies ExportedHandler;
