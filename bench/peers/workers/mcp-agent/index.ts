/**
 * Peer for `npm run bench -- peers`: the `echo` and `countdown` tools on `agents`' `McpAgent`
 * (a Durable Object per MCP session). McpAgent is feature-frozen on the SDK v1 McpServer, so this
 * peer uses `@modelcontextprotocol/sdk` 1.x, with the cfworker JSON Schema validator (workerd
 * forbids the default ajv's code generation).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { McpAgent } from "agents/mcp";
import { z } from "zod";

export class PeerMcpAgent extends McpAgent {
  server = new McpServer(
    { name: "peer-mcp-agent", version: "1.0.0" },
    { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() },
  );

  async init(): Promise<void> {
    this.server.registerTool(
      "echo",
      { description: "Returns the given text at once.", inputSchema: { text: z.string().max(10_000) } },
      async ({ text }) => ({ content: [{ type: "text", text }] }),
    );
    this.server.registerTool(
      "countdown",
      {
        description: "Counts down the given number of seconds, reporting progress every second.",
        inputSchema: { seconds: z.number().int().min(1).max(86_400) },
      },
      async ({ seconds }, extra) => {
        const progressToken = extra._meta?.progressToken;
        for (let elapsed = 1; elapsed <= seconds; elapsed++) {
          await new Promise((resolve) => setTimeout(resolve, 1000));
          if (progressToken !== undefined) {
            await extra.sendNotification({
              method: "notifications/progress",
              params: { progressToken, progress: elapsed, total: seconds, message: `${seconds - elapsed} s left` },
            });
          }
        }
        return { content: [{ type: "text", text: `Countdown of ${seconds} s finished.` }] };
      },
    );
  }
}

const mcp = PeerMcpAgent.serve("/mcp", { binding: "MCP_OBJECT" });

export default {
  fetch(request, env, ctx) {
    if (new URL(request.url).pathname === "/health") return Response.json({ ok: true });
    return mcp.fetch(request, env, ctx);
  },
} satisfies ExportedHandler;
