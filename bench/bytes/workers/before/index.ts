/**
 * The starting point `npm run bench -- bytes` measures: an `agents` createMcpHandler Worker with an
 * SDK v2 McpServer, a plain `echo` and the `countdown` the adopted Worker (../after) makes durable.
 * Written as docs/bundle.md asks of any Worker (`import * as z`), so the difference is adoption alone.
 */
import { McpServer } from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp/server";
import * as z from "zod";

function buildServer(): McpServer {
  const server = new McpServer({ name: "bytes", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Returns the given text at once.", inputSchema: z.object({ text: z.string().max(10_000) }) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  server.registerTool(
    "countdown",
    {
      description: "Counts down the given number of seconds, reporting progress every second.",
      inputSchema: { seconds: z.number().int().min(1).max(86_400) },
    },
    async ({ seconds }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      for (let elapsed = 1; elapsed <= seconds; elapsed++) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        if (progressToken !== undefined) {
          await ctx.mcpReq.notify({
            method: "notifications/progress",
            params: { progressToken, progress: elapsed, total: seconds, message: `${seconds - elapsed} s left` },
          });
        }
      }
      return { content: [{ type: "text", text: `Countdown of ${seconds} s finished.` }] };
    },
  );
  return server;
}

const mcp = createMcpHandler(buildServer);

export default {
  fetch: (request, env, ctx) => mcp(request, env, ctx),
} satisfies ExportedHandler;
