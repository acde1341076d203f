/**
 * An `agents` McpAgent Worker with durable tasks: the `echo` and `countdown` tools on `agents`'
 * `McpAgent` (a Durable Object per MCP session) with an SDK v1 McpServer, with the cfworker JSON
 * Schema validator (workerd forbids the default ajv's code generation). `countdown` is a durable
 * task (mcp-task-worker): 2025-11-25 clients that speak tasks get a task, others the result inline
 * when quick, else a link and check-back tools.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
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

const tasks = durableTasks({ tools: [countdown] });
const agentTasks = mcpAgentTasks(tasks);

export class MyMcpAgent extends TaskMcpAgent {
  server = new McpServer(
    { name: "mcp-agent-tasks", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );

  async init(): Promise<void> {
    this.server.registerTool(
      "echo",
      { description: "Returns the given text at once.", inputSchema: { text: z.string().max(10_000) } },
      async ({ text }) => ({ content: [{ type: "text", text }] }),
    );
    agentTasks.register(this.server);
  }
}

const mcp = agentTasks.serve(MyMcpAgent, "/mcp", { binding: "MCP_OBJECT" });

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === "/health") return Response.json({ ok: true });
    return mcp.fetch(request, env, ctx);
  },
  queue: tasks.queue,
} satisfies ExportedHandler;
