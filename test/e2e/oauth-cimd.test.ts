// AUTH_MODE=oauth with client ID metadata documents fetched over real https from a loopback host
// (support/cimd-host.ts; wrangler dev trusts its certificate through NODE_EXTRA_CA_CERTS): a good
// document buys a token; a redirect, a status other than 200, a media type other than JSON refuse
// the authorization with invalid_client, in words of ours that never name what the server reached.
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, it, type ExpectStatic } from "vitest";
import { documentFor, startCimdHost, type CimdHost } from "./support/cimd-host";
import { ownServer } from "./support/dev-server";

let host: CimdHost | undefined;
beforeAll(async () => {
  host = await startCimdHost();
});
afterAll(async () => {
  await host?.close();
});
const cimd = (): CimdHost => {
  if (!host) throw new Error("the CIMD host has not started");
  return host;
};
const server = ownServer(() => ({ vars: { AUTH_MODE: "oauth" }, processEnv: { NODE_EXTRA_CA_CERTS: cimd().caFile } }));

const redirectUri = "http://127.0.0.1:9/callback";
const base64url = (bytes: Buffer) =>
  bytes.toString("base64").replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** GET /authorize with the stand-in sign-in for `clientId`; the response as it came (no redirect followed). */
async function authorize(clientId: string, challenge = "x".repeat(43)): Promise<Response> {
  const url = new URL(`${server.url}/authorize`);
  const query = {
    ...{ response_type: "code", client_id: clientId, redirect_uri: redirectUri, state: "st", login_hint: "cimd-user" },
    ...{ code_challenge: challenge, code_challenge_method: "S256", resource: `${server.url}/mcp` },
  };
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return fetch(url, { redirect: "manual" });
}

/** The whole dance for a CIMD client: the token endpoint's status and body. */
async function tokenFor(clientId: string): Promise<{ status: number; body: string }> {
  const verifier = base64url(randomBytes(32));
  const authorized = await authorize(clientId, base64url(createHash("sha256").update(verifier).digest()));
  if (authorized.status !== 302) return { status: authorized.status, body: await authorized.text() };
  const code = new URL(authorized.headers.get("Location") ?? "").searchParams.get("code") ?? "";
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
  return { status: token.status, body: await token.text() };
}

/** A refusal of ours: 400 invalid_client whose message says nothing the runtime said. */
async function expectRefused(response: Response, expect: ExpectStatic): Promise<string> {
  expect(response.status).toBe(400);
  const body = (await response.json()) as { error: string; message: string };
  expect(body).toMatchObject({ error: "invalid_client" });
  expect(body.message).not.toMatch(/internal error|reference=|HTTP \d{3}|fetch failed|network/i);
  return body.message;
}

describe("client ID metadata documents over https", () => {
  it("accepts a document served 200 as application/json, and a token is issued", async ({ expect }) => {
    const clientId = `${cimd().httpsOrigin}/good/client.json`;
    cimd().routes.set("/good/client.json", documentFor(clientId, redirectUri));
    const token = await tokenFor(clientId);
    expect(token.status).toBe(200);
    expect(JSON.parse(token.body)).toMatchObject({ access_token: expect.any(String) });
    // A +json media type with parameters is JSON too.
    const suffixed = `${cimd().httpsOrigin}/good/suffixed.json`;
    cimd().routes.set("/good/suffixed.json", {
      ...documentFor(suffixed, redirectUri),
      headers: { "Content-Type": "application/oauth-client+json; charset=utf-8" },
    });
    expect((await tokenFor(suffixed)).status).toBe(200);
  });

  it("refuses a document behind a redirect (https to plain http on another port) with invalid_client, and never follows it", async ({
    expect,
  }) => {
    const clientId = `${cimd().httpsOrigin}/moved/client.json`;
    cimd().routes.set("/moved/client.json", {
      status: 302,
      headers: { Location: `${cimd().httpOrigin}/elsewhere/client.json` },
    });
    cimd().routes.set("/elsewhere/client.json", documentFor(clientId, redirectUri));
    for (const status of [301, 302, 303, 307, 308]) {
      cimd().routes.set("/moved/client.json", {
        status,
        headers: { Location: `${cimd().httpOrigin}/elsewhere/client.json` },
      });
      const token = await tokenFor(clientId);
      expect(token.status).toBe(400);
      expect(JSON.parse(token.body)).toMatchObject({
        error: "invalid_client",
        message: expect.stringContaining("redirect"),
      });
    }
    await expectRefused(await authorize(clientId), expect);
    expect(cimd().requests).toContain("https GET /moved/client.json");
    expect(cimd().requests).not.toContain("http GET /elsewhere/client.json");
  });

  it("refuses any status but 200 and any media type but JSON", async ({ expect }) => {
    const cases: [string, (id: string) => { status: number; headers?: Record<string, string>; body?: string }][] = [
      ["created", (id) => ({ ...documentFor(id, redirectUri), status: 201 })],
      ["html", (id) => ({ ...documentFor(id, redirectUri), headers: { "Content-Type": "text/html" } })],
      ["untyped", (id) => ({ ...documentFor(id, redirectUri), headers: {} })],
      [
        "text-json",
        (id) => ({ ...documentFor(id, redirectUri), headers: { "Content-Type": "text/plain; x=application/json" } }),
      ],
    ];
    for (const [name, answer] of cases) {
      const clientId = `${cimd().httpsOrigin}/${name}/client.json`;
      cimd().routes.set(`/${name}/client.json`, answer(clientId));
      const message = await expectRefused(await authorize(clientId), expect);
      expect(message).toMatch(/200|JSON/);
    }
  });

  it("answers a failed fetch in its own words: never the status it got, nor the runtime's error", async ({
    expect,
  }) => {
    const missing = await expectRefused(await authorize(`${cimd().httpsOrigin}/missing/client.json`), expect);
    expect(missing).toContain("could not be used");
    // Nothing listens on port 1: the runtime's own error ("internal error; reference=…") stays in the log.
    await expectRefused(await authorize("https://127.0.0.1:1/client.json"), expect);
  });
});
