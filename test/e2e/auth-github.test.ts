/**
 * AUTH_MODE=oauth with OAUTH_IDENTITY_PROVIDER=github, against a stand-in GitHub on loopback: the
 * authorization server offers client ID metadata documents, shows a consent page, sends the
 * browser to GitHub, and turns GitHub's user into the grant's principal (`oauth:github:<id>`).
 * Cookies are carried by hand, as a browser would.
 */
import { createHash, randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startGitHubStandIn, type GitHubStandIn } from "./support/github-stand-in";
import { rpc } from "./support/mcp";
import { ownServer } from "./support/dev-server";

let github: GitHubStandIn;
const redirectUri = "http://127.0.0.1:9/callback";
const base64url = (bytes: Buffer) => bytes.toString("base64url");

beforeAll(async () => {
  github = await startGitHubStandIn();
});
// Its settings name the stand-in's port, so the server is this file's own, started after the stand-in.
const server = ownServer(() => ({
  vars: {
    AUTH_MODE: "oauth",
    OAUTH_IDENTITY_PROVIDER: "github",
    GITHUB_CLIENT_ID: github.clientId,
    GITHUB_CLIENT_SECRET: github.clientSecret,
    GITHUB_URL: github.webUrl,
    GITHUB_API_URL: github.apiUrl,
  },
}));

afterAll(async () => {
  await github?.close();
});

/** A browser's cookie jar, enough for one host. */
class Jar {
  private cookies = new Map<string, string>();
  take(response: Response): Response {
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const [name, value] = [pair.slice(0, eq).trim(), pair.slice(eq + 1).trim()];
      if (value === "" || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return response;
  }
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }
}

async function registerClient(): Promise<string> {
  const registered = await fetch(`${server.url}/oauth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      client_name: "e2e <script>",
      redirect_uris: [redirectUri],
      token_endpoint_auth_method: "none",
      grant_types: ["authorization_code"],
      response_types: ["code"],
    }),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${await registered.text()}`);
  return ((await registered.json()) as { client_id: string }).client_id;
}

interface Started {
  jar: Jar;
  verifier: string;
  clientId: string;
  handle: string;
  page: string;
}

/** GET /authorize: the consent page, with its form handle and the binding cookie. */
async function openConsent(): Promise<Started> {
  const clientId = await registerClient();
  const verifier = base64url(randomBytes(32));
  const authorize = new URL(`${server.url}/authorize`);
  const params = {
    response_type: "code",
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: base64url(createHash("sha256").update(verifier).digest()),
    code_challenge_method: "S256",
    state: "st",
    resource: `${server.url}/mcp`,
  };
  for (const [key, value] of Object.entries(params)) authorize.searchParams.set(key, value);
  const jar = new Jar();
  const page = jar.take(await fetch(authorize, { redirect: "manual" }));
  if (page.status !== 200) throw new Error(`authorize: ${page.status} ${await page.text()}`);
  const html = await page.text();
  const handle = /name="handle" value="([^"]+)"/.exec(html)?.[1];
  if (!handle) throw new Error(`no handle in the consent page:\n${html}`);
  return { jar, verifier, clientId, handle, page: html };
}

/** Posts the consent form's answer. */
const answer = (started: Started, decision: "approve" | "deny", cookie = started.jar.header()) =>
  fetch(`${server.url}/authorize`, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
    body: new URLSearchParams({ handle: started.handle, decision }),
  });

/** Approve, pass GitHub's page, come back to the callback: the client's redirect with a code. */
async function signInWithGitHub(): Promise<{ started: Started; location: URL }> {
  const started = await openConsent();
  const toGitHub = started.jar.take(await answer(started, "approve"));
  if (toGitHub.status !== 302) throw new Error(`consent: ${toGitHub.status} ${await toGitHub.text()}`);
  const fromGitHub = await fetch(toGitHub.headers.get("Location") ?? "", { redirect: "manual" });
  const callback = started.jar.take(
    await fetch(fromGitHub.headers.get("Location") ?? "", {
      redirect: "manual",
      headers: { Cookie: started.jar.header() },
    }),
  );
  if (callback.status !== 302) throw new Error(`callback: ${callback.status} ${await callback.text()}`);
  return { started, location: new URL(callback.headers.get("Location") ?? "") };
}

async function exchange(started: Started, code: string): Promise<string> {
  const token = await fetch(`${server.url}/oauth/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      redirect_uri: redirectUri,
      client_id: started.clientId,
      code_verifier: started.verifier,
      resource: `${server.url}/mcp`,
    }),
  });
  if (token.status !== 200) throw new Error(`token: ${token.status} ${await token.text()}`);
  return ((await token.json()) as { access_token: string }).access_token;
}

describe("OAuth with GitHub as the identity provider", () => {
  it("offers client ID metadata documents beside dynamic registration, and keeps the RFC 9728 document", async ({
    expect,
  }) => {
    const as = await (await fetch(`${server.url}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: server.url,
      client_id_metadata_document_supported: true,
      registration_endpoint: `${server.url}/oauth/register`,
    });
    const resource = await (await fetch(`${server.url}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(resource).toMatchObject({ resource: `${server.url}/mcp`, authorization_servers: [server.url] });
  });

  it("asks for consent first, naming the client (escaped) and where the tokens go, in a page that cannot be framed", async ({
    expect,
  }) => {
    const { page } = await openConsent();
    expect(page).toContain("e2e &lt;script&gt;");
    expect(page).not.toContain("e2e <script>");
    expect(page).toContain("127.0.0.1");
    expect(page).toContain("Continue with GitHub");
  });

  it("signs the GitHub user in: the code becomes a token whose principal is the GitHub user", async ({ expect }) => {
    github.user = { id: 4242, login: "octocat" };
    const { started, location } = await signInWithGitHub();
    expect(location.origin + location.pathname).toBe(redirectUri);
    expect(location.searchParams.get("state")).toBe("st");
    const code = location.searchParams.get("code") ?? "";
    const octocat = { Authorization: `Bearer ${await exchange(started, code)}` };
    const created = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "countdown", arguments: { seconds: 1 }, task: {} },
      },
      { headers: octocat },
    );
    const taskId = (created.body as { result: { task: { taskId: string } } }).result.task.taskId;

    // Another GitHub user is another principal: the task is not theirs.
    github.user = { id: 9001, login: "hubot" };
    const other = await signInWithGitHub();
    const hubot = {
      Authorization: `Bearer ${await exchange(other.started, other.location.searchParams.get("code") ?? "")}`,
    };
    expect(
      (await rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId } }, { headers: octocat }))
        .body,
    ).toMatchObject({ result: { taskId } });
    expect(
      (await rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId } }, { headers: hubot }))
        .body,
    ).toMatchObject({ error: { code: -32602 } });
  });

  it("refuses a consent form posted without the browser's binding cookie (a forged form)", async ({ expect }) => {
    const started = await openConsent();
    const forged = await answer(started, "approve", "");
    expect(forged.status).toBe(400);
  });

  it("sends a declined consent back to the client as access_denied, without visiting GitHub", async ({ expect }) => {
    const before = github.requests.length;
    const started = await openConsent();
    const declined = await answer(started, "deny");
    expect(declined.status).toBe(302);
    const location = new URL(declined.headers.get("Location") ?? "");
    expect(location.searchParams.get("error")).toBe("access_denied");
    expect(location.searchParams.get("state")).toBe("st");
    expect(github.requests.length).toBe(before);
  });

  it("tells the client access_denied when the user declines at GitHub", async ({ expect }) => {
    github.user = { id: 4242, login: "octocat", deny: true };
    try {
      const { location } = await signInWithGitHub();
      expect(location.searchParams.get("error")).toBe("access_denied");
      expect(location.searchParams.get("code")).toBeNull();
    } finally {
      github.user = { id: 4242, login: "octocat" };
    }
  });

  it("refuses a callback replayed with the same state", async ({ expect }) => {
    const started = await openConsent();
    const toGitHub = started.jar.take(await answer(started, "approve"));
    const fromGitHub = await fetch(toGitHub.headers.get("Location") ?? "", { redirect: "manual" });
    const callbackUrl = fromGitHub.headers.get("Location") ?? "";
    const cookie = started.jar.header();
    expect((await fetch(callbackUrl, { redirect: "manual", headers: { Cookie: cookie } })).status).toBe(302);
    expect((await fetch(callbackUrl, { redirect: "manual", headers: { Cookie: cookie } })).status).toBe(400);
  });
});
