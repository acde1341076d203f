import { describe, it } from "vitest";
import { apiKeys, matchApiKey, parseApiKeys } from "../../src/http/api-keys";
import { hostnameOf, isAllowedOrigin, isLoopbackHostname, isTrustedHost } from "../../src/http/origin";
import { readSettings } from "../../src/config";

// Web Crypto, not node:crypto: unit tests are type-checked against the Worker's types.
const sha = async (text: string) =>
  Array.from(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))), (b) =>
    b.toString(16).padStart(2, "0"),
  ).join("");

describe("API_KEYS parsing", () => {
  it("reads name:token pairs and sha256: digests", async ({ expect }) => {
    const config = await parseApiKeys(` alice:tokA , bob:sha256:${await sha("tokB")}`);
    expect(config.ok).toBe(true);
    if (!config.ok) return;
    expect(config.keys.map((k) => k.name)).toEqual(["alice", "bob"]);
    expect(await matchApiKey(config.keys, "tokA")).toBe("alice");
    expect(await matchApiKey(config.keys, "tokB")).toBe("bob");
    expect(await matchApiKey(config.keys, `sha256:${await sha("tokB")}`)).toBeUndefined();
    expect(await matchApiKey(config.keys, "tokC")).toBeUndefined();
    expect(await matchApiKey(config.keys, "")).toBeUndefined();
  });

  it("keeps a token's colons (only the first colon separates the name)", async ({ expect }) => {
    const config = await parseApiKeys("svc:a:b:c");
    expect(config.ok && (await matchApiKey(config.keys, "a:b:c"))).toBe("svc");
  });

  it("lets one name hold two keys during a rotation", async ({ expect }) => {
    const config = await parseApiKeys(`alice:old-token,alice:sha256:${await sha("new-token")}`);
    if (!config.ok) throw new Error(config.message);
    expect(await matchApiKey(config.keys, "old-token")).toBe("alice");
    expect(await matchApiKey(config.keys, "new-token")).toBe("alice");
  });

  it("fails closed on malformed entries, naming the entry", async ({ expect }) => {
    for (const raw of [
      "alice",
      ":tok",
      "alice:",
      "al ice:tok",
      "bob:sha256:xyz",
      `bob:sha256:${(await sha("x")).slice(1)}`,
      " , ",
    ]) {
      const config = await parseApiKeys(raw);
      expect(config.ok, raw).toBe(false);
    }
    const config = await parseApiKeys("alice:tokA,broken");
    expect(config.ok ? "" : config.message).toMatch(/entry 2/);
  });
});

describe("Host and Origin checks", () => {
  const settings = readSettings({ ALLOWED_ORIGINS: "https://app.example.com", ALLOWED_HOSTS: "tunnel.example.net" });
  const request = (url: string, host?: string) => new Request(url, { headers: host ? { Host: host } : {} });

  it("knows loopback names", ({ expect }) => {
    for (const name of ["localhost", "LOCALHOST", "127.0.0.1", "127.1.2.3", "[::1]", "app.localhost"])
      expect(isLoopbackHostname(name), name).toBe(true);
    for (const name of ["example.com", "localhost.example.com", "128.0.0.1", "0.0.0.0", "[::2]"])
      expect(isLoopbackHostname(name), name).toBe(false);
  });

  it("refuses Host values that smuggle another name", ({ expect }) => {
    expect(hostnameOf("localhost:8787")).toBe("localhost");
    expect(hostnameOf("[::1]:8787")).toBe("[::1]");
    expect(hostnameOf("localhost@evil.example")).toBeUndefined();
    expect(hostnameOf("evil.example/localhost")).toBeUndefined();
    expect(hostnameOf("")).toBeUndefined();
  });

  it("trusts loopback names and ALLOWED_HOSTS only", ({ expect }) => {
    expect(isTrustedHost(request("http://127.0.0.1:8787/mcp"), settings)).toBe(true);
    expect(isTrustedHost(request("http://tunnel.example.net/mcp"), settings)).toBe(true);
    expect(isTrustedHost(request("http://evil.example:8787/mcp"), settings)).toBe(false);
  });

  it("allows same-origin, listed and (on a loopback server) loopback origins", ({ expect }) => {
    const local = request("http://127.0.0.1:8787/mcp");
    const deployed = request("https://mcp.example.com/mcp");
    expect(isAllowedOrigin("https://mcp.example.com", deployed, settings)).toBe(true);
    expect(isAllowedOrigin("https://app.example.com", deployed, settings)).toBe(true);
    expect(isAllowedOrigin("http://localhost:6274", local, settings)).toBe(true);
    expect(isAllowedOrigin("http://localhost:6274", deployed, settings)).toBe(false);
    expect(isAllowedOrigin("https://evil.example", deployed, settings)).toBe(false);
    expect(isAllowedOrigin("https://app.example.com.evil.example", deployed, settings)).toBe(false);
    expect(isAllowedOrigin("null", local, settings)).toBe(false);
    expect(isAllowedOrigin("garbage", local, settings)).toBe(false);
    expect(isAllowedOrigin("https://evil.example", deployed, readSettings({ ALLOWED_ORIGINS: "*" }))).toBe(true);
  });
});

describe("apiKeys (the isolate's cache of the parsed API_KEYS)", () => {
  it("keeps the parsed value, never a promise one request made and another would await", async ({ expect }) => {
    const raw = `cache-${crypto.randomUUID()}:tok_${"x".repeat(32)}`;
    // Two requests at once before anything is cached: each parses for itself.
    const [first, second] = [apiKeys(raw), apiKeys(raw)];
    expect(first).not.toBe(second);
    expect(await first).toEqual(await second);
    // Once parsed, every request gets the kept value.
    expect(await apiKeys(raw)).toBe(await apiKeys(raw));
  });
});
