/**
 * A client named by its client ID metadata document (CIMD: an https URL as client_id) signs a
 * GitHub user in, end to end inside workerd: the Worker is called directly with AUTH_MODE=oauth
 * settings, and its outbound fetches (the metadata document, GitHub's token endpoint and API) go to
 * stand-ins. test/e2e/auth-github.test.ts runs the same GitHub flow over real HTTP with a registered
 * client, and test/e2e/oauth-cimd.test.ts fetches documents over real https (a self-signed certificate).
 */
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { afterEach, beforeEach, describe, it, vi, type ExpectStatic } from "vitest";
import worker from "../../src/index";

const ORIGIN = "http://127.0.0.1:8787";
const CLIENT_ID = "https://client.example/oauth/client.json";
const REDIRECT_URI = "http://127.0.0.1:9/callback";
const GITHUB = "https://github.stand-in.test";
const GITHUB_API = "https://api.github.stand-in.test";
const oauthEnv = {
  ...env,
  AUTH_MODE: "oauth",
  OAUTH_IDENTITY_PROVIDER: "github",
  GITHUB_CLIENT_ID: "Iv1.stand-in",
  GITHUB_CLIENT_SECRET: "stand-in-secret",
  GITHUB_URL: GITHUB,
  GITHUB_API_URL: GITHUB_API,
};

const metadataDocument = {
  client_id: CLIENT_ID,
  client_name: "Example Client",
  redirect_uris: [REDIRECT_URI],
  token_endpoint_auth_method: "none",
  grant_types: ["authorization_code"],
  response_types: ["code"],
};
let fetched: string[] = [];

beforeEach(() => {
  fetched = [];
  const realFetch = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    fetched.push(`${request.method} ${request.url}`);
    if (request.url === CLIENT_ID) return Response.json(metadataDocument, { headers: { "Cache-Control": "no-store" } });
    if (request.url === `${GITHUB}/login/oauth/access_token`) {
      const form = await request.formData();
      const good =
        form.get("code") === "gh-code" &&
        form.get("client_secret") === "stand-in-secret" &&
        form.get("redirect_uri") === `${ORIGIN}/oauth/callback/github`;
      return Response.json(good ? { access_token: "gho_stand_in" } : { error: "bad_verification_code" });
    }
    if (request.url === `${GITHUB_API}/user`) {
      return request.headers.get("Authorization") === "Bearer gho_stand_in"
        ? Response.json({ id: 583231, login: "octocat" })
        : Response.json({ message: "Bad credentials" }, { status: 401 });
    }
    return realFetch(request);
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function call(path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${ORIGIN}${path}`, { redirect: "manual", ...init }), oauthEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

const cookiesOf = (response: Response): string =>
  response.headers
    .getSetCookie()
    .map((line) => line.split(";")[0] ?? "")
    .filter((pair) => !pair.endsWith("="))
    .join("; ");

async function pkce(): Promise<{ verifier: string; challenge: string }> {
  const verifier = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier)));
  return {
    verifier,
    challenge: btoa(String.fromCharCode(...digest))
      .replace(/\+/g, "-")
      .replace(/\//g, "_")
      .replace(/=+$/, ""),
  };
}

/** The flow up to GitHub's authorize page: the consent page, approved; what the callback needs back. */
async function throughConsent(expect: ExpectStatic): Promise<{ verifier: string; approved: Response; state: string }> {
  const { verifier, challenge } = await pkce();
  const query = new URLSearchParams({
    response_type: "code",
    client_id: CLIENT_ID,
    redirect_uri: REDIRECT_URI,
    code_challenge: challenge,
    code_challenge_method: "S256",
    state: "st",
    resource: `${ORIGIN}/mcp`,
  });
  const consent = await call(`/authorize?${query}`);
  expect(consent.status).toBe(200);
  const page = await consent.text();
  expect(page).toContain("Example Client (client.example)");
  expect(fetched).toContain(`GET ${CLIENT_ID}`);
  const handle = /name="handle" value="([^"]+)"/.exec(page)?.[1] ?? "";

  const approved = await call("/authorize", {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookiesOf(consent) },
    body: new URLSearchParams({ handle, decision: "approve" }),
  });
  expect(approved.status).toBe(302);
  const toGitHub = new URL(approved.headers.get("Location") ?? "");
  expect(toGitHub.origin + toGitHub.pathname).toBe(`${GITHUB}/login/oauth/authorize`);
  expect(toGitHub.searchParams.get("redirect_uri")).toBe(`${ORIGIN}/oauth/callback/github`);

  const state = toGitHub.searchParams.get("state") ?? "";
  return { verifier, approved, state };
}

describe("a client ID metadata document client signing in with GitHub", () => {
  it("is accepted: consent names its verified domain, and the code it gets back buys a token for /mcp", async ({
    expect,
  }) => {
    const { verifier, approved, state } = await throughConsent(expect);
    const callback = await call(`/oauth/callback/github?${new URLSearchParams({ code: "gh-code", state })}`, {
      headers: { Cookie: cookiesOf(approved) },
    });
    expect(callback.status).toBe(302);
    const back = new URL(callback.headers.get("Location") ?? "");
    expect(back.origin + back.pathname).toBe(REDIRECT_URI);
    expect(back.searchParams.get("state")).toBe("st");

    const token = await call("/oauth/token", {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({
        grant_type: "authorization_code",
        code: back.searchParams.get("code") ?? "",
        redirect_uri: REDIRECT_URI,
        client_id: CLIENT_ID,
        code_verifier: verifier,
        resource: `${ORIGIN}/mcp`,
      }),
    });
    expect(token.status).toBe(200);
    const { access_token: accessToken } = (await token.json()) as { access_token: string };

    const listed = await call("/tasks", { headers: { Authorization: `Bearer ${accessToken}` } });
    expect(listed.status).toBe(200);
  });

  it("is refused with a clear 400 when its metadata document does not name it", async ({ expect }) => {
    const wrong = "https://client.example/oauth/other.json";
    const query = new URLSearchParams({
      response_type: "code",
      client_id: wrong,
      redirect_uri: REDIRECT_URI,
      code_challenge: "x".repeat(43),
      code_challenge_method: "S256",
      state: "st",
      resource: `${ORIGIN}/mcp`,
    });
    vi.stubGlobal("fetch", async () => Response.json(metadataDocument));
    const refused = await call(`/authorize?${query}`);
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({
      error: "invalid_client",
      message: expect.stringContaining("does not match"),
    });
  });

  it("answers a GitHub that cannot be reached in our words, never the runtime's error", async ({ expect }) => {
    const { approved, state } = await throughConsent(expect);
    const stubbed = globalThis.fetch;
    vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const request = new Request(input, init);
      if (request.url.startsWith(GITHUB))
        throw new TypeError("Network connection lost. (internal error; reference = r7)");
      return stubbed(request);
    });
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const callback = await call(`/oauth/callback/github?${new URLSearchParams({ code: "gh-code", state })}`, {
      headers: { Cookie: cookiesOf(approved) },
    });
    expect(callback.status).toBe(502);
    const body = await callback.json();
    expect(body).toEqual({
      error: "identity_provider_failed",
      message:
        "Sign-in with GitHub failed: GitHub could not be reached. Try again; if it keeps failing, the server's log says why.",
    });
    expect(log.mock.calls.flat().map(String).join(" ")).toContain("Network connection lost.");
  });
});
