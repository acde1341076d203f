// The OAuth endpoints anyone may call, bounded: POST /authorize (the consent form) reads at most
// CONSENT_FORM_MAX_BYTES, declared or streamed; /oauth/register is rate-limited per address and
// caps the count and size of what a registration stores. Addresses are set per test with
// CF-Connecting-IP, which wrangler dev passes on as Cloudflare would set it.
import { describe, it } from "vitest";
import { sharedServer } from "./support/dev-server";
import { OPEN_ENDPOINTS_VARS } from "./support/oauth-open-endpoints";
import { heldOpenUpload } from "./support/streamed-upload";

const server = sharedServer(OPEN_ENDPOINTS_VARS);
const MB = 1024 * 1024;

const registration = (extra: Record<string, unknown> = {}) => ({
  ...{ client_name: "e2e", redirect_uris: ["http://127.0.0.1:9/callback"], token_endpoint_auth_method: "none" },
  ...{ grant_types: ["authorization_code"], response_types: ["code"] },
  ...extra,
});
let nextAddress = 0;
/** A fresh documentation address (RFC 5737) for each caller, so tests never share a bucket. */
const freshAddress = () => `203.0.113.${++nextAddress}`;

const register = (body: unknown, address: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "CF-Connecting-IP": address, ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
const post = (path: string, headers: Record<string, string>, body: BodyInit, redirect: RequestRedirect = "follow") =>
  fetch(`${server.url}${path}`, { method: "POST", headers, body, redirect });

describe("POST /authorize (the consent form)", () => {
  const form = { "Content-Type": "application/x-www-form-urlencoded" };
  it("refuses a form over 8 KiB with 413: 20 MB declared, and a streamed one past the cap", async ({ expect }) => {
    const declared = await post("/authorize", form, "handle=" + "a".repeat(20 * MB));
    expect(declared.status).toBe(413);
    const message = expect.stringContaining("larger than 8192 bytes");
    expect(await declared.json()).toMatchObject({ error: "invalid_request", message });
    // The body stays open: only a read that stops at the cap can answer (the old one read to the end).
    const streamed = await heldOpenUpload(`${server.url}/authorize`, form, 64 * 1024);
    expect(streamed.status).toBe(413);
  });

  it("refuses another media type with 415 and a body that is not UTF-8 with 400", async ({ expect }) => {
    const multipart = await fetch(`${server.url}/authorize`, { method: "POST", body: new FormData() });
    expect(multipart.status).toBe(415);
    const bad = await post("/authorize", form, new Uint8Array([0x68, 0x3d, 0xff, 0xfe]));
    expect(bad.status).toBe(400);
    // A small form still reaches the consent check: no handle, so the library refuses it in its words.
    const small = await post("/authorize", form, "handle=nope&decision=approve", "manual");
    expect(small.status).toBe(400);
  });
});

describe("/oauth/register", () => {
  it("lets an address register 10 clients at once, then answers 429 with Retry-After", async ({ expect }) => {
    const address = freshAddress();
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await register(registration(), address)).status);
    expect(statuses).toEqual(Array(10).fill(201));
    const over = await register(registration(), address);
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    expect(await over.json()).toMatchObject({ error: "rate_limited" });
    // Another address is not held back.
    expect((await register(registration(), freshAddress())).status).toBe(201);
  });

  it("caps the count and size of what a registration stores", async ({ expect }) => {
    const uris = (n: number) => Array.from({ length: n }, (_, i) => `http://127.0.0.1:9/callback/${i}`);
    // 2,000 redirect URIs (the review's case) pass the body cap first: a 413 below.
    const refusals: [string, unknown][] = [
      ["11 redirect URIs", registration({ redirect_uris: uris(11) })],
      ["300 redirect URIs", registration({ redirect_uris: uris(300).map((uri) => uri.slice(0, 30)) })],
      ["a 2,001-character redirect URI", registration({ redirect_uris: [`http://127.0.0.1:9/${"a".repeat(1990)}`] })],
      ["a 1,001-character client_name", registration({ client_name: "n".repeat(1001) })],
      ["11 contacts", registration({ contacts: Array.from({ length: 11 }, (_, i) => `a${i}@example.com`) })],
      ["41 members", registration(Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`client_name#${i}`, "n"])))],
    ];
    for (const [name, body] of refusals) {
      const answer = await register(body, freshAddress());
      expect(answer.status, name).toBe(400);
      expect(await answer.json(), name).toMatchObject({ error: "invalid_client_metadata" });
    }
    const atTheCaps = registration({ redirect_uris: uris(10), contacts: ["a@example.com"] });
    expect((await register(atTheCaps, freshAddress())).status).toBe(201);
  });

  it("refuses a body over 16 KiB with 413, declared or streamed", async ({ expect }) => {
    const big = JSON.stringify(registration({ software_id: "s".repeat(17 * 1024) }));
    expect((await register(big, freshAddress())).status).toBe(413);
    const uris = Array.from({ length: 2000 }, (_, i) => `http://127.0.0.1:9/callback/${i}`);
    expect((await register(registration({ redirect_uris: uris }), freshAddress())).status).toBe(413);
    const headers = { "Content-Type": "application/json", "CF-Connecting-IP": freshAddress() };
    const streamed = await heldOpenUpload(`${server.url}/oauth/register`, headers, 64 * 1024);
    expect(streamed.status).toBe(413);
  });
});

describe("a client_id longer than any client's (the fuzz test's find: KV refuses keys over 512 bytes)", () => {
  const long = "x".repeat(3000);
  it("is refused as invalid_client at /authorize and /oauth/token, never a 500", async ({ expect }) => {
    const query = { response_type: "code", client_id: long, redirect_uri: "http://127.0.0.1:9/cb" };
    const authorize = await fetch(`${server.url}/authorize?${new URLSearchParams(query)}`, { redirect: "manual" });
    expect(authorize.status).toBe(400);
    expect(await authorize.json()).toMatchObject({ error: "invalid_client" });
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    const exchange = new URLSearchParams({ grant_type: "authorization_code", code: "c", client_id: long });
    const token = await post("/oauth/token", form, exchange);
    expect(token.status).toBe(401);
    const authorization = `Basic ${btoa(`${long}:secret`)}`;
    const basic = await post(
      "/oauth/token",
      { ...form, Authorization: authorization },
      "grant_type=authorization_code&code=c",
    );
    expect(basic.status).toBe(401);
    expect(await basic.json()).toMatchObject({ error: "invalid_client" });
  });

  it("a token request body over 16 KiB is a 413", async ({ expect }) => {
    const form = { "Content-Type": "application/x-www-form-urlencoded" };
    const big = await post("/oauth/token", form, "code=" + "c".repeat(17 * 1024));
    expect(big.status).toBe(413);
  });
});
