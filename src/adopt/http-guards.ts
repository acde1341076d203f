/**
 * What both lanes' wrappers (durable-tasks.ts, mcp-agent-lane.ts) do to the engine's own HTTP
 * answers: the CORS headers agents' handlers give theirs, and the refusal of another site's page.
 */
import { isLoopbackHostname } from "../http/origin";

/** The same defaults as agents' createMcpHandler, so a browser client reads the engine's answers as it reads the rest. */
export function withCors(response: Response): Response {
  if (response.headers.has("Access-Control-Allow-Origin")) return response;
  const headers = new Headers(response.headers);
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Access-Control-Expose-Headers", "mcp-session-id");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

/** A foreign web page may not drive the engine from a browser (createMcpHandler refuses it the same way for /mcp). */
export function foreignOrigin(request: Request): boolean {
  const origin = request.headers.get("Origin");
  if (origin === null) return false;
  try {
    const { hostname, host } = new URL(origin);
    return !isLoopbackHostname(hostname) && host !== new URL(request.url).host;
  } catch {
    return true;
  }
}
