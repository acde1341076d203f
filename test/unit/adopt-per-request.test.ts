// Per-request factories (issue 49, point 2): a Worker that builds its server per request to capture
// `env` (`createMcpHandler(() => createServer(env))` inside `fetch`) creates the engine once, at
// module load, and may apply the wrapper per request: `tasks.fetch(createMcpHandler(...))(request,
// env, ctx)`. Each request then lists the durable tools on its own server, and a durable call made
// inside that server finds the request's scope (here: the bindings check, as no bindings are given).
import { McpServer } from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp/server";
import { describe, it } from "vitest";
import * as z from "zod";
import { durableTasks } from "../../src/adopt/durable-tasks";
import countdown from "../../src/tools/countdown";

// Once per isolate, with the same list the other adopter unit files record (tool-set.ts).
const tasks = durableTasks({ tools: [countdown] });
const ctx: ExecutionContext = Object.assign(Object.create(null), {
  waitUntil: () => undefined,
  passThroughOnException: () => undefined,
  props: {},
});

interface Env {
  GREETING: string;
}

/** The adopter's server, built from the request's env. */
function createServer(env: Env): McpServer {
  const server = new McpServer({ name: "per-request", version: "1.0.0" });
  server.registerTool("greet", { description: env.GREETING, inputSchema: z.object({}) }, async () => ({
    content: [{ type: "text", text: env.GREETING }],
  }));
  return tasks.register(server);
}

/** The Worker's fetch as such servers write it: the handler and the wrapper made per request. */
const fetchOf = (request: Request, env: Env) =>
  tasks.fetch(createMcpHandler(() => createServer(env)))(request, env, ctx);

const rpc = (method: string, params: Record<string, unknown> = {}) => {
  const meta = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": { name: "unit", version: "1" },
    "io.modelcontextprotocol/clientCapabilities": {},
  };
  return new Request("http://127.0.0.1:8787/mcp", {
    method: "POST",
    headers: {
      Host: "127.0.0.1:8787",
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      ...(typeof params["name"] === "string" && { "Mcp-Name": params["name"] }),
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } }),
  });
};

const ListSchema = z.object({
  result: z.object({ tools: z.array(z.object({ name: z.string(), description: z.string() })) }),
});

describe("a per-request factory under tasks.fetch", () => {
  it("lists the durable tools on each request's own server, built from that request's env", async ({ expect }) => {
    for (const greeting of ["Hello.", "Bonjour."]) {
      const response = await fetchOf(rpc("tools/list"), { GREETING: greeting });
      const body: unknown = await response.json();
      const { tools } = ListSchema.parse(body).result;
      expect(tools.map((tool) => tool.name)).toEqual([
        "greet",
        "countdown",
        "task_status",
        "task_result",
        "task_cancel",
        "task_input",
      ]);
      expect(tools[0]?.description).toBe(greeting);
    }
  });

  it("a durable call on that server finds the request's scope (the engine checks the bindings, not 'did not pass through tasks.fetch')", async ({
    expect,
  }) => {
    // A 2025 plain call reaches the adopter's server (createMcpHandler's legacy lane), which calls the engine.
    const request = new Request("http://127.0.0.1:8787/mcp", {
      method: "POST",
      headers: {
        Host: "127.0.0.1:8787",
        "Content-Type": "application/json",
        Accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "countdown", arguments: { seconds: 1 } },
      }),
    });
    const text = await (await fetchOf(request, { GREETING: "Hi." })).text();
    expect(text).toMatch(/cannot run until the Worker's wrangler config is fixed/);
    expect(text).not.toMatch(/did not pass through tasks.fetch/);
  });
});
