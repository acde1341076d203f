/**
 * Per-principal rate limiting (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_BURST): a token bucket in the
 * principal's RateLimiterObject, leased a few tokens at a time into this isolate so most
 * requests skip the round trip; over the limit the answer is 429 with Retry-After.
 */
import type { MiddlewareHandler } from "hono";
import { leaseSize, TokenLeases } from "../limits/token-lease";
import { jsonRpcErrorResponse } from "../protocol/errors";
import type { AppEnv } from "./env";

// Isolate memory: lost on eviction, which only drops unspent tokens (errs on the safe side).
const leases = new TokenLeases({ leaseMs: 1000, maxPrincipals: 1000 });

export const rateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const settings = c.get("settings");
  if (settings.rateLimitPerMinute === 0) return next();
  const principal = c.get("principal");
  const { rateLimitPerMinute: perMinute, rateLimitBurst: burst } = settings;
  // The bucket's settings are part of the key, so a changed limit never spends a lease taken under the old one.
  const verdict = await leases.spend(
    JSON.stringify([principal, perMinute, burst]),
    leaseSize(burst),
    (want, giveBack) =>
      c.env.RATE_LIMITER.getByName(JSON.stringify(["rate", principal])).lease(perMinute, burst, want, giveBack),
  );
  if (verdict.ok) return next();
  const message = `Rate limit exceeded (${perMinute} requests per minute, bursts of ${burst}). Retry after ${verdict.retryAfterSeconds} s.`;
  const headers = { "Retry-After": String(verdict.retryAfterSeconds) };
  // MCP clients expect a JSON-RPC error body on /mcp; the plain task view gets plain JSON.
  if (c.req.path === "/mcp") return jsonRpcErrorResponse(429, -32000, message, headers);
  return c.json({ error: "rate_limited", message }, 429, headers);
};
