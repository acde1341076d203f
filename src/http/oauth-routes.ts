/**
 * The authorization server's endpoints (AUTH_MODE=oauth; 404 otherwise). `/authorize` signs the
 * user in through the identity provider the settings name: GitHub (a consent page, GitHub's
 * authorize page, the callback) or the loopback-only stand-in. Token, registration and metadata are
 * the provider library's own; a registration is rate-limited and capped first.
 */
import type { AuthRequest, OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { Hono, type Context, type MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";
import { authorizationServer, loadProvider, OAUTH_PATHS, signIn } from "./oauth";
import { consentPage } from "./oauth-consent-page";
import { documentRefusal } from "./oauth-document-refusal";
import { readConsentForm } from "./oauth-form";
import { githubAuthorizeUrl, githubSettings, githubUser, signInFailure } from "./oauth-github";
import { admitRegistration } from "./oauth-registration";
import { admitTokenRequest, clientIdRefusal, impossibleClientId } from "./oauth-token-admission";

export const oauthRoutes = new Hono<AppEnv>();

/** Mounted at the root, so each route checks the mode itself rather than a "*" middleware. */
const oauthOn: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.get("settings").authMode !== "oauth")
    return c.json({ error: "not_found", message: 'OAuth is off on this server (AUTH_MODE is not "oauth").' }, 404);
  await next();
};

const oauthApi = async (c: Context<AppEnv>): Promise<OAuthHelpers> =>
  (await authorizationServer(c.req.raw)).getOAuthApi(c.env);

/**
 * The library's refusals (a bad request, a used or unbound consent handle or state, a client
 * metadata document that cannot be fetched) as 400s; redirects only where it vouched for the URI.
 */
async function refusal(c: Context<AppEnv>, error: unknown): Promise<Response> {
  const { AuthorizationError, CimdFetchError } = await loadProvider();
  if (error instanceof AuthorizationError) {
    if (error.redirectTo) return c.redirect(error.redirectTo, 302);
    return c.json({ error: error.code, message: error.description }, 400);
  }
  if (error instanceof CimdFetchError) {
    return c.json({ error: "invalid_client", message: documentRefusal(error.metadataUrl, error.detail) }, 400);
  }
  throw error;
}

/** A redirect carrying the cookies the library's consent and upstream helpers set or clear. */
const redirectWith = (headers: Headers, location: string): Response => {
  const out = new Headers(headers);
  out.set("Location", location);
  return new Response(null, { status: 302, headers: out });
};

/** Where a form may send the browser next: GitHub, and the client's redirect (a decline). */
const formTarget = (uri: string): string => {
  const url = new URL(uri);
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : url.protocol;
};

oauthRoutes.get(OAUTH_PATHS.authorize, oauthOn, async (c) => {
  const request = c.req.raw;
  if (impossibleClientId(request.url)) {
    return c.json({ error: "invalid_client", message: clientIdRefusal.error_description }, 400);
  }
  const api = await oauthApi(c);
  let authRequest: AuthRequest;
  try {
    authRequest = await api.parseAuthRequest(request);
  } catch (error) {
    return refusal(c, error);
  }
  if (c.get("settings").identityProvider === "github") {
    const github = githubSettings(c.get("settings").github);
    if (!github.ok) return c.json({ error: "identity_provider_misconfigured", message: github.message }, 503);
    try {
      const consent = await api.describeConsent(authRequest);
      const { handle, headers } = await api.beginConsent(authRequest);
      const formTargets = [formTarget(github.settings.webUrl), formTarget(authRequest.redirectUri)];
      return consentPage({ consent, handle, headers, action: OAUTH_PATHS.authorize, provider: "GitHub", formTargets });
    } catch (error) {
      return refusal(c, error);
    }
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

/** The consent form's answer: decline back to the client, or approve and go to GitHub. */
oauthRoutes.post(OAUTH_PATHS.authorize, oauthOn, async (c) => {
  if (c.get("settings").identityProvider !== "github")
    return c.json(
      { error: "not_found", message: "No consent form is in use: the stand-in signs in on GET /authorize." },
      404,
    );
  const github = githubSettings(c.get("settings").github);
  if (!github.ok) return c.json({ error: "identity_provider_misconfigured", message: github.message }, 503);
  const read = await readConsentForm(c.req.raw);
  if (!read.ok) return c.json({ error: "invalid_request", message: read.message }, read.status);
  const handle = read.form.get("handle") ?? "";
  const api = await oauthApi(c);
  try {
    if (read.form.get("decision") !== "approve") {
      const denied = await api.denyConsent(c.req.raw, handle, { description: "The user declined." });
      return redirectWith(denied.headers, denied.redirectTo);
    }
    const approved = await api.approveConsent(c.req.raw, handle);
    const upstream = await api.beginUpstream(approved.request, { headers: approved.headers });
    return redirectWith(
      upstream.headers,
      githubAuthorizeUrl(github.settings, new URL(c.req.url).origin, upstream.state),
    );
  } catch (error) {
    return refusal(c, error);
  }
});

/** GitHub sends the browser back here: who signed in becomes the grant's user, `github:<id>`. */
oauthRoutes.get(OAUTH_PATHS.githubCallback, oauthOn, async (c) => {
  const github = githubSettings(c.get("settings").github);
  if (!github.ok) return c.json({ error: "identity_provider_misconfigured", message: github.message }, 503);
  const api = await oauthApi(c);
  let resumed: Awaited<ReturnType<OAuthHelpers["finishUpstream"]>>;
  try {
    resumed = await api.finishUpstream(c.req.raw);
  } catch (error) {
    return refusal(c, error);
  }
  const origin = new URL(c.req.url).origin;
  const code = c.req.query("code");
  if (code === undefined || code === "") {
    // Declined or failed at GitHub (`error=access_denied`): tell the client, as OAuth does.
    const { authorizationErrorRedirect } = await loadProvider();
    const { redirectUri, state } = resumed.request;
    return redirectWith(
      resumed.headers,
      authorizationErrorRedirect(
        { redirectUri, ...(state !== undefined && { state }), issuer: origin },
        "access_denied",
        "Sign-in with GitHub did not complete.",
      ),
    );
  }
  let user: Awaited<ReturnType<typeof githubUser>>;
  try {
    user = await githubUser(github.settings, origin, code);
  } catch (error) {
    return c.json({ error: "identity_provider_failed", message: signInFailure(error) }, 502);
  }
  const userId = `github:${user.id}`;
  const { redirectTo } = await api.completeAuthorization({
    request: resumed.request,
    userId: encodeURIComponent(userId),
    metadata: { login: user.login },
    scope: resumed.request.scope,
    props: { userId, login: user.login },
  });
  return redirectWith(resumed.headers, redirectTo);
});

/** The provider's own endpoint, for `request` (the raw one, or a registration we admitted and re-wrapped). */
const provided = async (c: Context<AppEnv>, request: Request): Promise<Response> =>
  // hono types its context's ExecutionContext loosely; at runtime it is the Worker's own.
  (await authorizationServer(request)).fetch(request, c.env, c.executionCtx as unknown as ExecutionContext);

oauthRoutes.all(OAUTH_PATHS.metadata, oauthOn, (c) => provided(c, c.req.raw));

/** The token endpoint: a body within its cap, and a client_id some client could have (oauth-token-admission.ts). */
oauthRoutes.all(OAUTH_PATHS.token, oauthOn, async (c) => {
  const admitted = await admitTokenRequest(c.req.raw);
  return admitted.ok ? provided(c, admitted.request) : c.json(admitted.body, admitted.status);
});

/** Open to anyone, so rate-limited per address and capped before anything is stored (oauth-registration.ts). */
oauthRoutes.all(OAUTH_PATHS.register, oauthOn, async (c) => {
  const admitted = await admitRegistration(c);
  return admitted.ok ? provided(c, admitted.request) : admitted.response;
});
