/**
 * /mcp serves two protocol eras on one endpoint, decided per request: a body whose `_meta` claims
 * 2026-07-28 goes to the modern adapter, everything else (initialize, sessions, the GET stream)
 * to the 2025-11-25 adapter, unchanged. The body is read once, and parsed here only when it could
 * hold a claim; 2025 traffic otherwise passes through untouched.
 */
import type { Settings } from "../config";
import { handleMcpPost, type McpPostInput } from "../mcp/endpoint";
import { classifyPost, handleModernPost, modernMethodNotAllowed, modernTransportError, namesModernVersion, errorResponse } from "../mcp-2026-07-28";
import { readBodyWithLimit } from "./body";

export interface McpRouteInput {
  request: Request;
  env: Env;
  settings: Settings;
  principal: string;
  baseUrl: string;
  waitUntil(promise: Promise<unknown>): void;
}

const isJson = (request: Request): boolean => /^application\/json\b/i.test(request.headers.get("Content-Type") ?? "");

/** The claim's key, `io.modelcontextprotocol/protocolVersion`, in any JSON spelling (some encoders write `\/`). */
const MAY_CLAIM = "protocolVersion";

export async function routeMcpPost(input: McpRouteInput): Promise<Response> {
  const { request, settings } = input;
  const versionHeader = request.headers.get("MCP-Protocol-Version");
  const modernHeader = namesModernVersion(versionHeader);
  const legacy = (extra: Partial<McpPostInput> = {}) => handleMcpPost({ ...input, ...extra });
  if (!isJson(request)) {
    return modernHeader ? modernTransportError(415, -32600, "Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json.") : legacy();
  }
  const body = await readBodyWithLimit(request, settings.maxBodyBytes);
  if (!body.ok) return modernHeader ? modernTransportError(body.status, body.status === 413 ? -32600 : -32700, body.message) : legacy({ body });
  // Fast path: a body that never names a protocol version cannot claim an era (2025 traffic but initialize).
  if (!modernHeader && !body.text.includes(MAY_CLAIM)) return legacy({ body });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch {
    return modernHeader ? modernTransportError(400, -32700, "Parse error: the body is not valid JSON.") : legacy({ body });
  }
  const route = classifyPost(versionHeader, parsed);
  switch (route.kind) {
    case "legacy":
      return legacy({ body, json: { value: parsed } });
    case "reject":
      return errorResponse(route.id, route.error);
    case "modern":
      return handleModernPost({ ...input, message: route.message });
  }
}

/** GET or DELETE /mcp with the 2026-07-28 header: 405 (that era has no GET stream and no sessions); undefined for 2025 traffic. */
export function modernSessionOperation(request: Request): Response | undefined {
  return namesModernVersion(request.headers.get("MCP-Protocol-Version")) ? modernMethodNotAllowed(request.method) : undefined;
}
