/**
 * ../before adopted (docs/adopting.md, steps 1-6): `countdown` is a durable task, nothing else is
 * used (no events, no principal, no caller), so `npm run bench -- bytes` measures what the least
 * adoption costs.
 */
import { McpServer } from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp/server";
import { durableTasks } from "mcp-task-worker/agents";
import { countdown } from "./countdown";
import * as z from "zod";

export { PrincipalObject, TaskObject } from "mcp-task-worker/agents";

const tasks = durableTasks({ tools: [countdown] });

function buildServer(): McpServer {
  const server = new McpServer({ name: "bytes", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Returns the given text at once.", inputSchema: z.object({ text: z.string().max(10_000) }) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  return tasks.register(server);
}

const mcp = tasks.fetch(createMcpHandler(buildServer));

export default {
  fetch: (request, env, ctx) => mcp(request, env, ctx),
  queue: tasks.queue,
} satisfies ExportedHandler;
