/**
 * A stand-in for GitHub's OAuth endpoints on loopback, for AUTH_MODE=oauth with
 * OAUTH_IDENTITY_PROVIDER=github: its authorize page approves at once (a user who already allowed
 * the app), its token endpoint checks the app's credentials and the one-time code, and its API
 * answers GET /user for the token it issued. Point GITHUB_URL and GITHUB_API_URL at it.
 */
import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

export interface GitHubStandIn {
  /** GITHUB_URL for the server under test. */
  webUrl: string;
  /** GITHUB_API_URL. */
  apiUrl: string;
  clientId: string;
  clientSecret: string;
  /** The next sign-in's user; `deny` makes the authorize page answer `error=access_denied`. */
  user: { id: number; login: string; deny?: boolean };
  /** Every request it got, as "METHOD path". */
  requests: string[];
  close(): Promise<void>;
}

const body = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    let text = "";
    request.on("data", (chunk: Buffer) => (text += chunk.toString()));
    request.on("end", () => resolve(text));
  });

const json = (response: ServerResponse, status: number, value: unknown) => {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(value));
};

export async function startGitHubStandIn(): Promise<GitHubStandIn> {
  const codes = new Map<string, { redirectUri: string; user: GitHubStandIn["user"] }>();
  const tokens = new Map<string, GitHubStandIn["user"]>();
  const user: GitHubStandIn["user"] = { id: 4242, login: "octocat" };
  const standIn = { clientId: "Iv1.stand-in", clientSecret: "stand-in-secret", user, requests: [] as string[] };
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://stand-in");
    standIn.requests.push(`${request.method} ${url.pathname}`);
    if (request.method === "GET" && url.pathname === "/login/oauth/authorize") {
      const redirect = new URL(url.searchParams.get("redirect_uri") ?? "");
      redirect.searchParams.set("state", url.searchParams.get("state") ?? "");
      if (url.searchParams.get("client_id") !== standIn.clientId)
        return json(response, 404, { error: "unknown client" });
      if (standIn.user.deny) redirect.searchParams.set("error", "access_denied");
      else {
        const code = randomBytes(10).toString("hex");
        codes.set(code, { redirectUri: url.searchParams.get("redirect_uri") ?? "", user: standIn.user });
        redirect.searchParams.set("code", code);
      }
      response.writeHead(302, { Location: redirect.toString() });
      return response.end();
    }
    if (request.method === "POST" && url.pathname === "/login/oauth/access_token") {
      const form = new URLSearchParams(await body(request));
      const grant = codes.get(form.get("code") ?? "");
      if (form.get("client_id") !== standIn.clientId || form.get("client_secret") !== standIn.clientSecret)
        return json(response, 200, { error: "incorrect_client_credentials" });
      if (!grant || grant.redirectUri !== form.get("redirect_uri"))
        return json(response, 200, { error: "bad_verification_code" });
      codes.delete(form.get("code") ?? "");
      const token = `gho_${randomBytes(12).toString("hex")}`;
      tokens.set(token, grant.user);
      return json(response, 200, { access_token: token, token_type: "bearer", scope: "read:user" });
    }
    if (request.method === "GET" && url.pathname === "/api/user") {
      const user = tokens.get((request.headers.authorization ?? "").replace(/^Bearer /, ""));
      if (!user || !request.headers["user-agent"]) return json(response, 401, { message: "Bad credentials" });
      return json(response, 200, { id: user.id, login: user.login, type: "User" });
    }
    json(response, 404, { message: "Not Found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("the stand-in has no TCP port");
  const { port } = address;
  return Object.assign(standIn, {
    webUrl: `http://127.0.0.1:${port}`,
    apiUrl: `http://127.0.0.1:${port}/api`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
