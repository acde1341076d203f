/**
 * Who is calling. Every task is bound to a principal from the start: an API key's name
 * (API_KEYS), an OAuth grant's user (AUTH_MODE=oauth), or, with no auth configured, one
 * anonymous principal that only loopback requests (local dev) or ALLOW_ANONYMOUS=true get.
 */
import type { MiddlewareHandler } from "hono";
import type { Settings } from "../config";
import type { AppEnv, TemplateBindings } from "./env";
import type { JsonObject } from "../json";
import { apiKeys, matchApiKey } from "./api-keys";
import { verifyOAuthToken } from "./oauth";
import { ANONYMOUS_PRINCIPAL, anonymousRefused, isLoopbackRequest } from "./origin";
import { bearerToken, unauthorized } from "./well-known";

/**
 * `caller`: what a tool's `job.caller` gets: the principal and how it signed in (the API key's name,
 * or the OAuth grant's user and props), never the key or token itself.
 */
export type Authentication = { ok: true; principal: string; caller: JsonObject } | { ok: false; response: Response };

export async function resolvePrincipal(
  request: Request,
  env: TemplateBindings,
  settings: Settings,
): Promise<Authentication> {
  if (settings.authMode === "oauth") return verifyOAuthToken(request, env);
  if (settings.apiKeys !== undefined) {
    const config = await apiKeys(settings.apiKeys);
    if (!config.ok) {
      // The operator's mistake, not the client's: fail closed and say how to fix it.
      return {
        ok: false,
        response: Response.json(
          {
            error: "auth_misconfigured",
            message: `${config.message} Fix the API_KEYS secret; until then no request is let in.`,
          },
          { status: 503 },
        ),
      };
    }
    const token = bearerToken(request);
    if (token === undefined)
      return { ok: false, response: unauthorized(request, request.headers.has("Authorization")) };
    const name = await matchApiKey(config.keys, token);
    return name === undefined
      ? { ok: false, response: unauthorized(request, true) }
      : { ok: true, principal: name, caller: { principal: name, apiKeyName: name } };
  }
  if (isLoopbackRequest(request) || settings.allowAnonymous)
    return { ok: true, principal: ANONYMOUS_PRINCIPAL, caller: { principal: ANONYMOUS_PRINCIPAL } };
  return { ok: false, response: anonymousRefused() };
}

export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  const result = await resolvePrincipal(c.req.raw, c.env, c.get("settings"));
  if (!result.ok) return result.response;
  c.set("principal", result.principal);
  c.set("caller", result.caller);
  await next();
};
