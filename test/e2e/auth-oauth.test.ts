// AUTH_MODE=oauth: discovery documents, the 401 challenge, and a full authorization-code + PKCE
// dance (dynamic registration, /authorize with the dev sign-in, token exchange) giving a principal.
import { createHash, randomBytes } from "node:crypto";
import { describe, it } from "vitest";
import { ownServer, sharedServer } from "./support/dev-server";
import { KEYED_VARS } from "./support/server-settings";
import { rpc } from "./support/mcp";

// It reads the server's output, so the server is its own.
const server = ownServer({ vars: { AUTH_MODE: "oauth" } });
/** What the provider's module logs when it loads without the global_fetch_strictly_public flag. */
const CIMD_DISABLED_LINE = "CIMD (Client ID Metadata Document) is disabled";
const redirectUri = "http://127.0.0.1:9/callback";
const base64url = (bytes: Buffer) =>
  bytes.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** Register a public client, authorize as `user` with PKCE, and exchange the code for an access token. */
async function signIn(user: string): Promise<string> {
  const registered = await fetch(`${server.url}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: "e2e",
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
    }),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = base64url(randomBytes(32));
  const challenge = base64url(createHash("sha256").update(verifier).digest());
  const authorize = new URL(`${server.url}/authorize`);
  for (const [key, value] of Object.entries({
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "st",
    resource: `${server.url}/mcp`,
    login_hint: user,
  })) {
    authorize.searchParams.set(key, value);
  }
  const redirected = await fetch(authorize, { redirect: "manual" });
  if (redirected.status !== 302) throw new Error(`authorize: ${redirected.status} ${await redirected.text()}`);
  const location = new URL(redirected.headers.get("Location") ?? "");
  const code = location.searchParams.get("code");
  if (!code || location.searchParams.get("state") !== "st") throw new Error(`authorize redirect: ${location}`);
  const token = await fetch(`${server.url}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      client_id: clientId,
      code_verifier: verifier,
      resource: `${server.url}/mcp`,
    }),
  });
  if (token.status !== 200) throw new Error(`token: ${token.status} ${await token.text()}`);
  return ((await token.json()) as { access_token: string }).access_token;
}

describe("AUTH_MODE=oauth", () => {
  it("publishes protected-resource metadata naming this server as the authorization server", async ({ expect }) => {
    const doc = await (await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(doc).toMatchObject({ resource: `${server.url}/mcp`, authorization_servers: [server.url] });
    const as = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
    expect(as.status).toBe(200);
    expect(await as.json()).toMatchObject({
      issuer: server.url,
      authorization_endpoint: `${server.url}/authorize`,
      token_endpoint: `${server.url}/oauth/token`,
      registration_endpoint: `${server.url}/oauth/register`,
      code_challenge_methods_supported: expect.arrayContaining(["S256"]),
    });
  });

  it("challenges a request without a token, even from loopback", async ({ expect }) => {
    const reply = await rpc(server.url, { jsonrpc: "2.0", id: 1, method: "tasks/list", params: {} });
    expect(reply.status).toBe(401);
    expect(reply.headers.get("WWW-Authenticate")).toBe(
      `Bearer resource_metadata="${server.url}/.well-known/oauth-protected-resource"`,
    );
    const wrong = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "tasks/list", params: {} },
      { headers: { Authorization: "Bearer not:a:token" } },
    );
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get("WWW-Authenticate")).toMatch(/error="invalid_token"/);
  });

  it("lets a signed-in user in, with the grant's user as the principal", async ({ expect }) => {
    const alice = { Authorization: `Bearer ${await signIn("alice")}` };
    const bob = { Authorization: `Bearer ${await signIn("bob")}` };
    const created = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "countdown", arguments: { seconds: 1 }, task: {} },
      },
      { headers: alice },
    );
    const taskId = (created.body as { result: { task: { taskId: string } } }).result.task.taskId;
    const mine = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId } },
      { headers: alice },
    );
    expect(mine.body).toMatchObject({ result: { taskId } });
    const theirs = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId } },
      { headers: bob },
    );
    expect(theirs.body).toMatchObject({ error: { code: -32602 } });
  });
});

describe("API-key mode", () => {
  // Any server with API keys: the one of support/server-settings.ts.
  const plain = sharedServer(KEYED_VARS);
  it("keeps the OAuth endpoints off", async ({ expect }) => {
    expect((await fetch(`${plain.url}/.well-known/oauth-authorization-server`)).status).toBe(404);
    expect((await fetch(`${plain.url}/oauth/token`, { method: "POST" })).status).toBe(404);
    const doc = (await (await fetch(`${plain.url}/.well-known/oauth-protected-resource`)).json()) as Record<
      string,
      unknown
    >;
    expect(doc["authorization_servers"]).toBeUndefined();
  });
});

describe("the OAuth provider's module", () => {
  it("runs with client ID metadata documents on: it never says CIMD is disabled", async ({ expect }) => {
    // A whole OAuth dance first, so the module has loaded (whichever tests ran before).
    await signIn("cimd-check");
    expect(server.logs()).not.toContain(CIMD_DISABLED_LINE);
    const metadata = await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({ client_id_metadata_document_supported: true });
  });
});
