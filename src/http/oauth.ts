/**
 * OAuth 2.1 (AUTH_MODE=oauth), for clients that only do OAuth: this Worker is both the
 * authorization server (`@cloudflare/workers-oauth-provider`, grants in the OAUTH_KV namespace)
 * and the protected resource. Clients identify themselves by a client ID metadata document (CIMD,
 * an https URL as client_id) or by dynamic registration. Who the user is: GitHub
 * (OAUTH_IDENTITY_PROVIDER=github, src/http/oauth-github.ts), or on a loopback dev server the
 * stand-in `signIn` below; another provider is one more branch in `/authorize` (oauth-routes.ts).
 */
import type { TemplateBindings } from "./env";
import { isRecord, type JsonObject } from "../json";
import type { AuthRequest, OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import { guardDocumentFetches } from "./oauth-document-fetch";
import { GITHUB_CALLBACK_PATH } from "./oauth-github";
import { isLoopbackRequest } from "./origin";
import { bearerToken, resourceUrl, unauthorized } from "./well-known";

export const OAUTH_PATHS = {
  authorize: "/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  metadata: "/.well-known/oauth-authorization-server",
  githubCallback: GITHUB_CALLBACK_PATH,
} as const;

/** What your identity step returns: the user's stable id (becomes the principal), or a page to show. */
export type SignInResult = { userId: string } | Response;

const USER_ID = /^[A-Za-z0-9._@+-]{1,64}$/;

/**
 * The stand-in identity step of `/authorize` (no OAUTH_IDENTITY_PROVIDER): a loopback dev server
 * signs in `login_hint` (or "dev-user") so the flow can be tried locally, and a deployed server
 * refuses: it must never hand out grants to whoever asks.
 */
export async function signIn(request: Request, authRequest: AuthRequest, env: TemplateBindings): Promise<SignInResult> {
  void authRequest; // yours to show on a consent page (client, scopes)
  void env; // yours for your IdP's client secret, a session store, …
  if (!isLoopbackRequest(request)) {
    return Response.json(
      {
        error: "no_identity_provider",
        message:
          "OAuth is on (AUTH_MODE=oauth) but no identity provider is set: set OAUTH_IDENTITY_PROVIDER=github with a GitHub OAuth app, or plug in your own in src/http/oauth.ts (see docs/security.md).",
      },
      { status: 501 },
    );
  }
  const hint = new URL(request.url).searchParams.get("login_hint") ?? "dev-user";
  if (!USER_ID.test(hint))
    return Response.json(
      { error: "invalid_request", message: "login_hint must be 1-64 letters, digits or . _ @ + -." },
      { status: 400 },
    );
  return { userId: hint };
}

/**
 * The provider is loaded on first use, so a server with another AUTH_MODE never runs its module
 * (which logs a warning at load): it stays in the bundle, but out of every isolate's startup.
 * The isolate keeps the module, not the import's promise: each request awaits its own import()
 * (the runtime evaluates the module once; no I/O), never one another request started.
 */
type Provider = typeof import("@cloudflare/workers-oauth-provider");
let provider: Provider | undefined;
export async function loadProvider(): Promise<Provider> {
  provider ??= await import("@cloudflare/workers-oauth-provider");
  return provider;
}

/** One authorization server per origin: the issuer and resource are this server's own URLs. */
const servers = new Map<string, OAuthAuthorizationServer<TemplateBindings>>();
export async function authorizationServer(request: Request): Promise<OAuthAuthorizationServer<TemplateBindings>> {
  // Before any use of the provider: its document fetches follow redirects unless guarded.
  guardDocumentFetches();
  const origin = new URL(request.url).origin;
  let server = servers.get(origin);
  if (!server) {
    const { OAuthAuthorizationServer } = await loadProvider();
    server = new OAuthAuthorizationServer<TemplateBindings>({
      issuer: origin,
      resources: [resourceUrl(request)],
      authorizeEndpoint: OAUTH_PATHS.authorize,
      tokenEndpoint: OAUTH_PATHS.token,
      // Client ID metadata documents, the MCP authorization spec's SHOULD (2025-11-25 on): a client
      // is named by an https URL serving its metadata, fetched by the provider (this needs the
      // global_fetch_strictly_public flag, so such fetches never reach private addresses). The
      // fetch itself is ours (oauth-document-fetch.ts): no redirects, 200 and JSON only.
      clientIdMetadataDocumentEnabled: true,
      // Dynamic client registration: what older MCP clients use.
      clientRegistrationEndpoint: OAUTH_PATHS.register,
      scopesSupported: ["mcp"],
    });
    // Origins are few (the deployed names, or loopback in dev); the cap is only a backstop.
    if (servers.size > 16) servers.clear();
    servers.set(origin, server);
  }
  return server;
}

/** The principal for an OAuth access token: `oauth:<user id>` from the grant, kept apart from API-key names. */
export async function verifyOAuthToken(
  request: Request,
  env: TemplateBindings,
): Promise<{ ok: true; principal: string; caller: JsonObject } | { ok: false; response: Response }> {
  const token = bearerToken(request);
  if (token === undefined) return { ok: false, response: unauthorized(request, request.headers.has("Authorization")) };
  let validated: { userId: string; props: unknown } | null;
  try {
    validated = await (await authorizationServer(request)).validateToken(resourceUrl(request), token, env);
  } catch {
    // A token for another resource, or a malformed one the library refuses to look up.
    validated = null;
  }
  if (!validated) return { ok: false, response: unauthorized(request, true) };
  const props = validated.props as { userId?: unknown } | null;
  const userId = typeof props?.userId === "string" ? props.userId : validated.userId;
  const principal = `oauth:${userId}`;
  // The grant's props as the consent step stored them: what a tool acting for this user may need.
  return { ok: true, principal, caller: { principal, grant: { userId, ...(isRecord(props) && { props }) } } };
}
