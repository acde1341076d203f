// The edges of both adopter lanes (src/adopt) that a hostile caller or an adopter's own options
// reach before the engine: a Base64 Mcp-Name routes as the name it encodes, createMcpHandler's
// allowedHostnames / allowedOriginHostnames hold for task requests too, a throwing principal() is a
// clean JSON answer on /mcp and /tasks, and the McpAgent lane reads bodies as the other lane does.
import { McpServer } from "@modelcontextprotocol/server";
import { afterEach, describe, it, vi } from "vitest";
import { durableTasks, type DurableTasksOptions } from "../../src/adopt/durable-tasks";
import { guardRefusal } from "../../src/adopt/http-guards";
import { MAX_ROUTED_BYTES, readAgentBody } from "../../src/adopt/mcp-agent-body";
import { routeOf } from "../../src/adopt/route";
import { MAX_JSON_DEPTH } from "../../src/http/json-input";
import countdown from "../../src/tools/countdown";

const tools = (name: string) => ["countdown", "task_status"].includes(name);
const base64 = (value: string) => `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode(value)))}?=`;
/** Only passed through to the adopter's functions (and waitUntil): the parts a test reaches, on an untyped base. */
const ctx: ExecutionContext = Object.assign(Object.create(null), {
  waitUntil: () => undefined,
  passThroughOnException: () => undefined,
  props: {},
});

function modern(
  method: string,
  name?: string,
  headers: Record<string, string> = {},
  url = "http://127.0.0.1:8787/mcp",
) {
  return new Request(url, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "MCP-Protocol-Version": "2026-07-28",
      "Mcp-Method": method,
      ...(name !== undefined && { "Mcp-Name": name }),
      ...headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { name: name ?? "", arguments: {} } }),
  });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("routeOf with a Base64 Mcp-Name", () => {
  it("routes =?base64?…?= as the name it encodes: a durable tool's call, a task resource", ({ expect }) => {
    expect(routeOf(modern("tools/call", base64("countdown")), "/mcp", tools)).toBe("mcp");
    expect(routeOf(modern("resources/read", base64("task://abc")), "/mcp", tools)).toBe("mcp");
    expect(routeOf(modern("tools/call", base64("echo")), "/mcp", tools)).toBe("theirs");
    // Not valid Base64: the adopter's handler refuses it as it would.
    expect(routeOf(modern("tools/call", "=?base64?!!!?="), "/mcp", tools)).toBe("theirs");
  });
});

describe("guardRefusal: createMcpHandler's Host and Origin options, on task requests", () => {
  const tight = { allowedHostnames: ["mcp.example.com"], allowedOriginHostnames: ["app.example.com"] };
  const at = (headers: Record<string, string>) =>
    new Request("https://mcp.example.com/tasks", { headers: { Host: "mcp.example.com", ...headers } });

  it("refuses a Host the adopter did not list, and an Origin it did not list", ({ expect }) => {
    expect(guardRefusal(at({ Host: "evil.example" }), tight)).toMatchObject({ status: 403, error: "host_not_allowed" });
    expect(guardRefusal(at({ Origin: "https://evil.example" }), tight)).toMatchObject({
      status: 403,
      error: "origin_not_allowed",
    });
    expect(guardRefusal(at({ Origin: "https://app.example.com" }), tight)).toBeUndefined();
    expect(guardRefusal(at({}), tight)).toBeUndefined();
  });

  it("keeps the defaults without options: another site's page refused, loopback and own pages served", ({ expect }) => {
    expect(guardRefusal(at({ Origin: "https://evil.example" }), {})).toMatchObject({ error: "origin_not_allowed" });
    expect(guardRefusal(at({ Origin: "https://mcp.example.com" }), {})).toBeUndefined();
    expect(guardRefusal(at({ Origin: "http://localhost:5173" }), {})).toBeUndefined();
    expect(guardRefusal(at({ Origin: "null" }), {})).toMatchObject({ error: "origin_not_allowed" });
    expect(guardRefusal(at({ Origin: "https://evil.example" }), { allowedOriginHostnames: "*" })).toBeUndefined();
  });

  it("counts the page McpAgent.serve's corsOptions.origin names, unless a list is given", ({ expect }) => {
    const cors = { corsOrigin: "https://app.example.com" };
    expect(guardRefusal(at({ Origin: "https://app.example.com" }), cors)).toBeUndefined();
    expect(guardRefusal(at({ Origin: "https://evil.example" }), cors)).toMatchObject({ error: "origin_not_allowed" });
    // agents' default "*" names no page; a list given wins over it.
    expect(guardRefusal(at({ Origin: "https://evil.example" }), { corsOrigin: "*" })).toMatchObject({ status: 403 });
    const listed = { ...cors, allowedOriginHostnames: ["other.example.com"] };
    expect(guardRefusal(at({ Origin: "https://app.example.com" }), listed)).toMatchObject({ status: 403 });
  });
});

describe("tasks.fetch in front of the adopter's handler", () => {
  const namespace = { getByName: () => undefined, idFromName: () => undefined };
  const metrics = { backlogCount: 0, backlogBytes: 0 };
  const queue: Queue = {
    metrics: async () => metrics,
    send: async () => ({ metadata: { metrics } }),
    sendBatch: async () => ({ metadata: { metrics } }),
  };
  const env = { TASKS: namespace, PRINCIPALS: namespace, JOBS: queue };
  const theirs = async () => new Response("theirs");
  const wrapped = (options: Partial<DurableTasksOptions>) =>
    durableTasks({ tools: [countdown], ...options }).fetch(theirs);

  it("refuses a durable call with a Host the adopter's allowedHostnames leaves out, before any task", async ({
    expect,
  }) => {
    const fetch = wrapped({ principal: () => "alice", allowedHostnames: ["127.0.0.1"] });
    const reply = await fetch(modern("tools/call", "countdown", { Host: "evil.example" }), env, ctx);
    expect(reply.status).toBe(403);
    expect(await reply.json()).toMatchObject({ jsonrpc: "2.0", error: { data: { error: "host_not_allowed" } } });
  });

  it("answers a throwing principal() with a JSON-RPC error on /mcp and JSON on /tasks, 401, cause logged", async ({
    expect,
  }) => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const fetch = wrapped({
      principal: () => {
        throw new TypeError("ctx.props is undefined");
      },
    });
    const mcp = await fetch(modern("tools/call", "countdown"), env, ctx);
    expect(mcp.status).toBe(401);
    const rpc = await mcp.text();
    expect(JSON.parse(rpc)).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
    const view = await fetch(new Request("http://127.0.0.1:8787/tasks"), env, ctx);
    expect(view.status).toBe(401);
    expect(await view.json()).toMatchObject({ error: "unauthenticated" });
    expect(rpc).not.toContain("ctx.props");
    expect(log).toHaveBeenCalled();
  });

  it("leaves the adopter's own traffic alone whatever principal() does", async ({ expect }) => {
    const fetch = wrapped({
      principal: () => {
        throw new Error("never asked");
      },
    });
    expect(await (await fetch(modern("tools/call", "echo"), env, ctx)).text()).toBe("theirs");
  });

  it("registers on an SDK v2 server as before", ({ expect }) => {
    const server = durableTasks({ tools: [countdown] }).register(new McpServer({ name: "x", version: "1" }));
    expect(server).toBeInstanceOf(McpServer);
  });
});

describe("readAgentBody: the McpAgent lane reads as the other lane reads", () => {
  const post = (body: BodyInit, headers: Record<string, string> = {}) => {
    // Node needs `duplex` for a streamed body (workerd does not, and its RequestInit type lacks it).
    const init = { method: "POST", headers: { "Content-Type": "application/json", ...headers }, body, duplex: "half" };
    return new Request("http://127.0.0.1:8787/mcp", init);
  };
  const chunked = (text: string, size = 7) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text);
        for (let i = 0; i < bytes.length; i += size) controller.enqueue(bytes.slice(i, i + size));
        controller.close();
      },
    });
  const call = {
    jsonrpc: "2.0",
    id: 1,
    method: "tools/call",
    params: { name: "countdown", arguments: { seconds: 1 } },
  };

  it("reads a chunked body (no Content-Length) as a framed one", async ({ expect }) => {
    const read = await readAgentBody(post(chunked(JSON.stringify(call))));
    expect(read).toMatchObject({ kind: "read", message: call });
  });

  it("refuses a body nested deeper than the shared cap with a JSON-RPC error", async ({ expect }) => {
    const deep = `${"[".repeat(MAX_JSON_DEPTH + 1)}${"]".repeat(MAX_JSON_DEPTH + 1)}`;
    const read = await readAgentBody(
      post(
        JSON.stringify({ ...call, params: { name: "countdown", arguments: { x: deep } } }).replace(`"${deep}"`, deep),
      ),
    );
    expect(read.kind).toBe("refused");
    if (read.kind !== "refused") return;
    expect(read.response.status).toBe(400);
    expect(await read.response.json()).toMatchObject({
      error: { code: -32600, message: expect.stringContaining("nested") },
    });
  });

  it("refuses a body past agents' own cap, framed or chunked, with 413", async ({ expect }) => {
    const big = `{"x":"${"a".repeat(MAX_ROUTED_BYTES)}"}`;
    for (const body of [big, chunked(big, 64 * 1024)]) {
      const read = await readAgentBody(post(body));
      expect(read.kind === "refused" && read.response.status).toBe(413);
    }
  });

  it("leaves a body that is not JSON unread, for the McpAgent to answer", async ({ expect }) => {
    expect(await readAgentBody(post("x", { "Content-Type": "text/plain" }))).toEqual({ kind: "unread" });
  });
});
