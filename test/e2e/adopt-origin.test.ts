// A browser Origin on the McpAgent lane (examples/mcp-agent, installed from the tarball, no guard
// options: the defaults): a plain tool (`echo`, the McpAgent's) and a durable one (`countdown`, the
// engine's; a plain call and a task) are treated alike, with another site's Origin, a loopback
// Origin, and none. Raw HTTP, so the Origin header is exactly what a browser would send.
import { describe, expect, it } from "vitest";
import { adopterConfig } from "./support/adopter";
import { ownServer } from "./support/dev-server";
import { parseSse } from "./support/mcp";
import { type RawReply, rawRequest } from "./support/raw-http";

const server = ownServer(async () => ({ config: await adopterConfig("examples/mcp-agent") }));

const JSON_AND_SSE = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

function post(body: unknown, headers: Record<string, string> = {}): Promise<RawReply> {
  return rawRequest(`${server.url}/mcp`, {
    method: "POST",
    headers: { ...JSON_AND_SSE, ...headers },
    body: JSON.stringify(body),
  });
}

/** The JSON-RPC message of a reply, whether it came as JSON or as one SSE event. */
function messageOf(reply: RawReply): Record<string, unknown> {
  const type = String(reply.headers["content-type"] ?? "");
  const text = type.includes("text/event-stream") ? (parseSse(reply.text).at(-1)?.data ?? "") : reply.text;
  return JSON.parse(text);
}

async function session(headers: Record<string, string> = {}): Promise<string> {
  const reply = await post(
    {
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: { tasks: {} },
        clientInfo: { name: "origin", version: "1" },
      },
    },
    headers,
  );
  const id = reply.headers["mcp-session-id"];
  if (reply.status !== 200 || typeof id !== "string") throw new Error(`initialize: ${reply.status} ${reply.text}`);
  await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { "Mcp-Session-Id": id, ...headers });
  return id;
}

let nextId = 1;
const calls = {
  echo: { name: "echo", arguments: { text: "hi" } },
  "countdown (plain call)": { name: "countdown", arguments: { seconds: 1 } },
  "countdown (a task)": { name: "countdown", arguments: { seconds: 1 }, task: { ttl: 60_000 } },
};
const call = (sessionId: string, params: object, headers: Record<string, string>) =>
  post({ jsonrpc: "2.0", id: nextId++, method: "tools/call", params }, { "Mcp-Session-Id": sessionId, ...headers });

describe("a browser Origin on the McpAgent lane, plain and durable tools alike", () => {
  it.for(Object.entries(calls))("%s: another site's page refused with a JSON-RPC error, 403", async ([, params]) => {
    const sessionId = await session();
    const reply = await call(sessionId, params, { Origin: "https://evil.example" });
    expect(reply.status).toBe(403);
    expect(messageOf(reply)).toMatchObject({ jsonrpc: "2.0", error: { data: { error: "origin_not_allowed" } } });
  });

  it.for(Object.entries(calls))("%s: a loopback page and no Origin are served", async ([, params]) => {
    const variants: Record<string, string>[] = [{ Origin: `http://localhost:${server.port}` }, {}];
    for (const headers of variants) {
      const sessionId = await session(headers);
      const reply = await call(sessionId, params, headers);
      expect(reply.status, reply.text).toBe(200);
      expect(messageOf(reply)).toMatchObject({ jsonrpc: "2.0", result: expect.any(Object) });
    }
  });

  it("refuses another site's page its initialize too: it gets no session to call from", async () => {
    const reply = await post(
      {
        jsonrpc: "2.0",
        id: 0,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "origin", version: "1" } },
      },
      { Origin: "https://evil.example" },
    );
    expect(reply.status).toBe(403);
    expect(reply.headers["mcp-session-id"]).toBeUndefined();
  });

  it("refuses another site's page the session's GET stream, its DELETE and a preflight", async () => {
    const sessionId = await session();
    const evil = { Origin: "https://evil.example", "Mcp-Session-Id": sessionId };
    const get = await rawRequest(`${server.url}/mcp`, {
      headers: { ...evil, Accept: "text/event-stream" },
      timeoutMs: 10_000,
    });
    const preflight = await rawRequest(`${server.url}/mcp`, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    const del = await rawRequest(`${server.url}/mcp`, { method: "DELETE", headers: evil });
    expect([get.status, preflight.status, del.status]).toEqual([403, 403, 403]);
    // The session itself is untouched: its own client still calls on it.
    expect((await call(sessionId, calls.echo, {})).status).toBe(200);
  });
});
