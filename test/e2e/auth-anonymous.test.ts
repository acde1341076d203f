// Secure by default: with no auth configured, anonymous requests are served on loopback names only,
// unless ALLOW_ANONYMOUS=true.
import { describe, it } from "vitest";
import { sharedServer } from "./support/dev-server";
import { rpc } from "./support/mcp";
import { rawRequest } from "./support/raw-http";

const closed = sharedServer();
const open = sharedServer({ ALLOW_ANONYMOUS: "true" });
const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tasks/list", params: {} });
const headers = { "Content-Type": "application/json", Accept: "application/json" };

describe("no auth configured", () => {
  it("serves anonymous requests addressed to a loopback host", async ({ expect }) => {
    expect((await rpc(closed.url, JSON.parse(body))).status).toBe(200);
    for (const host of [`localhost:${closed.port}`, `127.0.0.1:${closed.port}`, `[::1]:${closed.port}`]) {
      const reply = await rawRequest(`${closed.url}/mcp`, {
        method: "POST",
        headers: { ...headers, Host: host },
        body,
      });
      expect(reply.status, host).toBe(200);
    }
  });

  it("refuses any other host with a message that says how to configure auth", async ({ expect }) => {
    for (const host of ["mcp.example.com", `evil.example:${closed.port}`]) {
      const reply = await rawRequest(`${closed.url}/mcp`, {
        method: "POST",
        headers: { ...headers, Host: host },
        body,
      });
      expect(reply.status, host).toBe(403);
      const error = JSON.parse(reply.text) as { error: string; message: string };
      expect(error.error).toBe("auth_not_configured");
      expect(error.message).toMatch(/API_KEYS/);
      expect(error.message).toMatch(/ALLOW_ANONYMOUS/);
    }
    const view = await rawRequest(`${closed.url}/tasks/${"a".repeat(32)}`, { headers: { Host: "mcp.example.com" } });
    expect(view.status).toBe(403);
  });

  it("still answers /health on any host", async ({ expect }) => {
    const reply = await rawRequest(`${closed.url}/health`, { headers: { Host: "mcp.example.com" } });
    expect(reply.status).toBe(200);
  });
});

describe("ALLOW_ANONYMOUS=true", () => {
  it("serves anonymous requests on any host", async ({ expect }) => {
    for (const host of ["mcp.example.com", `localhost:${open.port}`]) {
      const reply = await rawRequest(`${open.url}/mcp`, { method: "POST", headers: { ...headers, Host: host }, body });
      expect(reply.status, host).toBe(200);
      expect(JSON.parse(reply.text)).toMatchObject({ result: { tasks: [] } });
    }
  });

  it("still checks browser origins", async ({ expect }) => {
    const reply = await rpc(open.url, JSON.parse(body), { headers: { Origin: "https://evil.example" } });
    expect(reply.status).toBe(403);
  });
});
