/**
 * OAuth 2.1 (AUTH_MODE=oauth), for clients that only do OAuth: this Worker is both the
 * authorization server (`@cloudflare/workers-oauth-provider`, grants in the OAUTH_KV namespace)
 * and the protected resource. The identity step is yours: replace `signIn` below.
 */
import type { AuthRequest, OAuthAuthorizationServer } from "@cloudflare/workers-oauth-provider";
import { Hono, type MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";
import { isLoopbackRequest } from "./origin";
import { bearerToken, resourceUrl, unauthorized } from "./well-known";

export const OAUTH_PATHS = {
  authorize: "/authorize",
  token: "/oauth/token",
  register: "/oauth/register",
  metadata: "/.well-known/oauth-authorization-server",
} as const;

/** What your identity step returns: the user's stable id (becomes the principal), or a page to show. */
export type SignInResult = { userId: string } | Response;

const USER_ID = /^[A-Za-z0-9._@+-]{1,64}$/;

/**
 * The identity step of `/authorize`: authenticate the user (your IdP: redirect to it and come
 * back, check a session cookie, show a consent page) and return their id. Until you plug one
 * in, a loopback dev server signs in `login_hint` (or "dev-user") so the flow can be tried
 * locally, and a deployed server refuses: it must never hand out grants to whoever asks.
 */
export async function signIn(request: Request, authRequest: AuthRequest, env: Env): Promise<SignInResult> {
  void authRequest; // yours to show on a consent page (client, scopes)
  void env; // yours for your IdP's client secret, a session store, …
  if (!isLoopbackRequest(request)) {
    return Response.json(
      { error: "no_identity_provider", message: "OAuth is on (AUTH_MODE=oauth) but no identity provider is plugged in. Implement signIn() in src/http/oauth.ts (see docs/security.md)." },
      { status: 501 },
    );
  }
  const hint = new URL(request.url).searchParams.get("login_hint") ?? "dev-user";
  if (!USER_ID.test(hint)) return Response.json({ error: "invalid_request", message: "login_hint must be 1-64 letters, digits or . _ @ + -." }, { status: 400 });
  return { userId: hint };
}

/**
 * The provider is loaded on first use, so a server with another AUTH_MODE never runs its module
 * (which logs a warning at load): it stays in the bundle, but out of every isolate's startup.
 */
type Provider = typeof import("@cloudflare/workers-oauth-provider");
let provider: Promise<Provider> | undefined;
const loadProvider = (): Promise<Provider> => (provider ??= import("@cloudflare/workers-oauth-provider"));

/** One authorization server per origin: the issuer and resource are this server's own URLs. */
const servers = new Map<string, OAuthAuthorizationServer<Env>>();
async function authorizationServer(request: Request): Promise<OAuthAuthorizationServer<Env>> {
  const origin = new URL(request.url).origin;
  let server = servers.get(origin);
  if (!server) {
    const { OAuthAuthorizationServer } = await loadProvider();
    server = new OAuthAuthorizationServer<Env>({
      issuer: origin,
      resources: [resourceUrl(request)],
      authorizeEndpoint: OAUTH_PATHS.authorize,
      tokenEndpoint: OAUTH_PATHS.token,
      // Dynamic client registration: what most MCP clients use today.
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
export async function verifyOAuthToken(request: Request, env: Env): Promise<{ ok: true; principal: string } | { ok: false; response: Response }> {
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
  return { ok: true, principal: `oauth:${userId}` };
}

/** The authorization server's endpoints; they answer only when AUTH_MODE=oauth. */
export const oauthRoutes = new Hono<AppEnv>();

/** Mounted at the root, so each route checks the mode itself rather than a "*" middleware. */
const oauthOn: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get("settings").authMode !== "oauth") return c.json({ error: "not_found", message: 'OAuth is off on this server (AUTH_MODE is not "oauth").' }, 404);
  await next();
};

oauthRoutes.get(OAUTH_PATHS.authorize, oauthOn, async (c) => {
  const request = c.req.raw;
  const api = (await authorizationServer(request)).getOAuthApi(c.env);
  const { AuthorizationError } = await loadProvider();
  let authRequest: AuthRequest;
  try {
    authRequest = await api.parseAuthRequest(request);
  } catch (error) {
    if (error instanceof AuthorizationError) {
      // Redirect only when the library vouched for the redirect URI; otherwise show the error here.
      if (error.redirectTo) return c.redirect(error.redirectTo, 302);
      return c.json({ error: error.code, message: error.description }, 400);
    }
    return c.json({ error: "invalid_request", message: "The authorization request could not be parsed." }, 400);
  }
  const who = await signIn(request, authRequest, c.env);
  if (who instanceof Response) return who;
  const { redirectTo } = await api.completeAuthorization({
    request: authRequest,
    // The library reserves ":" in user ids.
    userId: encodeURIComponent(who.userId),
    metadata: {},
    scope: authRequest.scope,
    props: { userId: who.userId },
  });
  return c.redirect(redirectTo, 302);
});

for (const path of [OAUTH_PATHS.token, OAUTH_PATHS.register, OAUTH_PATHS.metadata]) {
  // hono types its context's ExecutionContext loosely; at runtime it is the Worker's own.
  oauthRoutes.all(path, oauthOn, async (c) => (await authorizationServer(c.req.raw)).fetch(c.req.raw, c.env, c.executionCtx as unknown as ExecutionContext));
}
