/**
 * CORS for browser-based MCP clients whose Origin passed the allow-list (origin.ts): a
 * preflight names exactly the headers the MCP transport uses, and responses expose the
 * session id and the auth challenge so the client can read them.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";

export const CORS_ALLOW_METHODS = "GET, POST, DELETE, OPTIONS";
export const CORS_ALLOW_HEADERS =
  "Content-Type, Authorization, Mcp-Session-Id, MCP-Protocol-Version, Last-Event-ID, Mcp-Method, Mcp-Name";
export const CORS_EXPOSE_HEADERS = "Mcp-Session-Id, WWW-Authenticate";

function withCorsHeaders(response: Response, origin: string): Response {
  // Responses from fetch() or a Durable Object have immutable headers: copy those.
  let target = response;
  try {
    target.headers.set("Access-Control-Allow-Origin", origin);
  } catch {
    target = new Response(response.body, response);
    target.headers.set("Access-Control-Allow-Origin", origin);
  }
  target.headers.append("Vary", "Origin");
  target.headers.set("Access-Control-Expose-Headers", CORS_EXPOSE_HEADERS);
  return target;
}

/** Runs after the Origin check, so an Origin seen here is one this server accepts. */
export const cors: MiddlewareHandler<AppEnv> = async (c, next) => {
  const origin = c.req.header("Origin");
  if (c.req.method === "OPTIONS") {
    const headers = new Headers({
      "Access-Control-Allow-Methods": CORS_ALLOW_METHODS,
      "Access-Control-Allow-Headers": CORS_ALLOW_HEADERS,
      "Access-Control-Max-Age": "86400",
      Allow: CORS_ALLOW_METHODS,
    });
    const response = new Response(null, { status: 204, headers });
    return origin === undefined ? response : withCorsHeaders(response, origin);
  }
  await next();
  if (origin !== undefined) c.res = withCorsHeaders(c.res, origin);
};
