/**
 * Peer for `npm run bench -- peers`: the `echo` and `countdown` tools on `agents`' stateless
 * `createMcpHandler` with an SDK v2 (`@modelcontextprotocol/server`) McpServer per request,
 * plus a bare `GET /health` route to compare the runtime floor with ours.
 */
import { McpServer } from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp/server";
import { z } from "zod";

function buildServer(): McpServer {
  const server = new McpServer({ name: "peer-create-mcp-handler", version: "1.0.0" });
  server.registerTool(
    "echo",
    { description: "Returns the given text at once.", inputSchema: z.object({ text: z.string().max(10_000) }) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  server.registerTool(
    "countdown",
    {
      description: "Counts down the given number of seconds, reporting progress every second.",
      inputSchema: z.object({ seconds: z.number().int().min(1).max(86_400) }),
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
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === "/health") return Response.json({ ok: true });
    return mcp(request, env, ctx);
  },
} satisfies ExportedHandler;
