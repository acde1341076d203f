// API keys, the RFC 9728 challenge, Origin allow-list, CORS and DNS-rebinding protection on a real wrangler dev.
import { describe, it } from "vitest";
import { sharedServer } from "./support/dev-server";
import { HASHED_DIGEST, HASHED_TOKEN, KEYED_TOKENS, KEYED_VARS } from "./support/server-settings";
import { connectClient, rpc } from "./support/mcp";
import { rawRequest } from "./support/raw-http";

// A plaintext key (auth) and a sha256: one (auth-hashed), and one allowed Origin, on the server of
// the files that need API keys (support/server-settings.ts): its requests create no task.
const alice = { Authorization: `Bearer ${KEYED_TOKENS.auth}` };
const bob = { Authorization: `Bearer ${HASHED_TOKEN}` };
const list = { jsonrpc: "2.0", id: 1, method: "tasks/list", params: {} };
const server = sharedServer(KEYED_VARS);

describe("API keys", () => {
  it("keeps /health open", async ({ expect }) => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });

  it("answers a request without a token with 401 and a Bearer challenge naming the resource metadata", async ({
    expect,
  }) => {
    const reply = await rpc(server.url, list);
    expect(reply.status).toBe(401);
    expect(reply.headers.get("WWW-Authenticate")).toBe(
      `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource"`,
    );
    expect(reply.body).toMatchObject({ error: "unauthorized" });
  });

  it("answers a wrong token, or another scheme, with 401 invalid_token", async ({ expect }) => {
    for (const authorization of [
      "Bearer tokX",
      `Bearer ${KEYED_TOKENS.auth}2`,
      "Bearer ",
      `Basic ${Buffer.from(`auth:${KEYED_TOKENS.auth}`).toString("base64")}`,
      `Bearer sha256:${HASHED_DIGEST}`,
    ]) {
      const reply = await rpc(server.url, list, { headers: { Authorization: authorization } });
      expect(reply.status, authorization).toBe(401);
      expect(reply.headers.get("WWW-Authenticate"), authorization).toMatch(
        /^Bearer error="invalid_token".*resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource"/,
      );
    }
  });

  it("guards the plain task view too", async ({ expect }) => {
    const response = await fetch(`${server.url}/tasks/${"0".repeat(32)}`);
    expect(response.status).toBe(401);
    expect(response.headers.get("WWW-Authenticate")).toMatch(/^Bearer /);
    expect((await fetch(`${server.url}/tasks/${"0".repeat(32)}`, { headers: alice })).status).toBe(404);
  });

  it("lets a plaintext key and a sha256: key in, as the real SDK client", async ({ expect }) => {
    for (const headers of [alice, bob]) {
      const client = await connectClient(server.url, { headers });
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain("countdown");
      await client.close();
    }
  });

  it("serves the RFC 9728 protected-resource document at the root and for /mcp, without auth", async ({ expect }) => {
    for (const path of ["/.well-known/oauth-protected-resource", "/.well-known/oauth-protected-resource/mcp"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(200);
      const doc = (await response.json()) as Record<string, unknown>;
      expect(doc).toMatchObject({ resource: `${server.url}/mcp`, bearer_methods_supported: ["header"] });
      // API keys come from the operator, not an authorization server.
      expect(doc["authorization_servers"]).toBeUndefined();
    }
  });
});

describe("browsers", () => {
  it("refuses a foreign Origin with 403, before auth", async ({ expect }) => {
    for (const origin of [
      "https://evil.example",
      "null",
      "http://app.example.com",
      "https://app.example.com.evil.example",
    ]) {
      const reply = await rpc(server.url, list, { headers: { ...alice, Origin: origin } });
      expect(reply.status, origin).toBe(403);
      expect(reply.body).toMatchObject({ error: "origin_not_allowed" });
    }
  });

  it("serves an allowed Origin with CORS headers that expose the session id and challenge", async ({ expect }) => {
    for (const origin of ["https://app.example.com", "http://localhost:6274"]) {
      const ok = await rpc(server.url, list, { headers: { ...alice, Origin: origin } });
      expect(ok.status, origin).toBe(200);
      expect(ok.headers.get("Access-Control-Allow-Origin")).toBe(origin);
      expect(ok.headers.get("Access-Control-Expose-Headers")).toBe("Mcp-Session-Id, WWW-Authenticate");
      const challenged = await rpc(server.url, list, { headers: { Origin: origin } });
      expect(challenged.status).toBe(401);
      expect(challenged.headers.get("Access-Control-Allow-Origin")).toBe(origin);
    }
  });

  it("answers a CORS preflight with exactly the MCP headers, without credentials", async ({ expect }) => {
    const response = await fetch(`${server.url}/mcp`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://app.example.com",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, mcp-protocol-version",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example.com");
    expect(response.headers.get("Access-Control-Allow-Headers")).toBe(
      "Content-Type, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name",
    );
    expect(response.headers.get("Access-Control-Allow-Methods")).toBe("GET, POST, DELETE, OPTIONS");
    expect(response.headers.get("Access-Control-Expose-Headers")).toBe("Mcp-Session-Id, WWW-Authenticate");
    const foreign = await fetch(`${server.url}/mcp`, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(foreign.status).toBe(403);
    expect(foreign.headers.get("Access-Control-Allow-Origin")).toBeNull();
  });

  it("refuses a non-loopback Host on the local dev server (DNS rebinding), even with a valid token", async ({
    expect,
  }) => {
    const body = JSON.stringify(list);
    const headers = { ...alice, "Content-Type": "application/json", Accept: "application/json" };
    for (const host of [
      "evil.example",
      `evil.example:${server.port}`,
      "192.168.1.10",
      `localhost.evil.example:${server.port}`,
    ]) {
      const reply = await rawRequest(`${server.url}/mcp`, {
        method: "POST",
        headers: { ...headers, Host: host },
        body,
      });
      expect(reply.status, host).toBe(421);
      expect(JSON.parse(reply.text)).toMatchObject({ error: "host_not_allowed" });
    }
    const local = await rawRequest(`${server.url}/mcp`, {
      method: "POST",
      headers: { ...headers, Host: `localhost:${server.port}` },
      body,
    });
    expect(local.status).toBe(200);
  });
});
