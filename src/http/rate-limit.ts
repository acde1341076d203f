/**
 * Per-principal rate limiting (RATE_LIMIT_PER_MINUTE, RATE_LIMIT_BURST): a token bucket in the
 * principal's RateLimiterObject; over the limit the answer is 429 with Retry-After.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";

export const rateLimit: MiddlewareHandler<AppEnv> = async (c, next) => {
  const settings = c.get("settings");
  if (settings.rateLimitPerMinute === 0) return next();
  const stub = c.env.RATE_LIMITER.getByName(JSON.stringify(["rate", c.get("principal")]));
  const verdict = await stub.take(settings.rateLimitPerMinute, settings.rateLimitBurst);
  if (verdict.ok) return next();
  const message = `Rate limit exceeded (${settings.rateLimitPerMinute} requests per minute, bursts of ${settings.rateLimitBurst}). Retry after ${verdict.retryAfterSeconds} s.`;
  const headers = { "Retry-After": String(verdict.retryAfterSeconds) };
  // MCP clients expect a JSON-RPC error body on /mcp; the plain task view gets plain JSON.
  if (c.req.path === "/mcp") return c.json({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }, 429, headers);
  return c.json({ error: "rate_limited", message }, 429, headers);
};
