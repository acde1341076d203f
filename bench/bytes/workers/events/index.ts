/** ../after with the Events extension opted in (`withEvents`), as examples/create-mcp-handler has it. */
import { McpServer } from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp/server";
import { durableTasks, withEvents } from "mcp-task-worker/agents";
import { countdown } from "../after/countdown";
import * as z from "zod";

export { EventLogObject, PrincipalObject, TaskObject } from "mcp-task-worker/agents";

const tasks = durableTasks({ tools: [countdown], events: withEvents([]) });

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
