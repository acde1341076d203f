/**
 * /mcp serves two protocol eras on one endpoint, decided per request: a body whose `_meta` claims
 * 2026-07-28 is served here, everything else (initialize, sessions, the GET stream) goes to the
 * legacy adapter in front of which this sits, unchanged — the SDK v2's `isLegacyRequest` pattern.
 * The body is read once, and parsed here only when it could hold a claim; the legacy adapter gets
 * the body (and the parsed value, when there is one) so it does not read or parse it again.
 */
import { readBodyWithLimit } from "../http/body";
import type { McpEndpoint, McpRequest } from "../http/mcp-endpoint";
import { classifyPost, namesModernVersion } from "./classify";
import { handleModernPost, modernMethodNotAllowed, modernTransportError } from "./endpoint";
import { errorResponse } from "./errors";
import { ERROR, HEADER } from "./protocol";

const isJson = (request: Request): boolean => /^application\/json\b/i.test(request.headers.get("Content-Type") ?? "");

/** The claim's key, `io.modelcontextprotocol/protocolVersion`, in any JSON spelling (some encoders write `\/`). */
const MAY_CLAIM = "protocolVersion";

async function routePost(input: McpRequest, legacy: McpEndpoint): Promise<Response> {
  const { request, settings } = input;
  const versionHeader = request.headers.get(HEADER.protocolVersion);
  const modernHeader = namesModernVersion(versionHeader);
  if (!isJson(request)) {
    return modernHeader ? modernTransportError(415, ERROR.invalidRequest, "Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json.") : legacy.post(input);
  }
  const body = await readBodyWithLimit(request, settings.maxBodyBytes);
  if (!body.ok) return modernHeader ? modernTransportError(body.status, body.status === 413 ? ERROR.invalidRequest : ERROR.parse, body.message) : legacy.post({ ...input, body });
  // Fast path: a body that never names a protocol version cannot claim an era (2025 traffic but initialize).
  if (!modernHeader && !body.text.includes(MAY_CLAIM)) return legacy.post({ ...input, body });
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.text);
  } catch {
    return modernHeader ? modernTransportError(400, ERROR.parse, "Parse error: the body is not valid JSON.") : legacy.post({ ...input, body });
  }
  const route = classifyPost(versionHeader, parsed);
  switch (route.kind) {
    case "legacy":
      return legacy.post({ ...input, body, json: { value: parsed } });
    case "reject":
      return errorResponse(route.id, route.error);
    case "modern":
      return handleModernPost({ ...input, message: route.message });
  }
}

/** GET or DELETE with the 2026-07-28 header is 405 (that era has no GET stream and no sessions); else the legacy adapter's. */
const sessionOperation = (input: McpRequest, legacy: (input: McpRequest) => Promise<Response>): Promise<Response> =>
  namesModernVersion(input.request.headers.get(HEADER.protocolVersion)) ? Promise.resolve(modernMethodNotAllowed(input.request.method)) : legacy(input);

/** `/mcp` for both eras: 2026-07-28 requests served here, the rest by `legacy`. */
export function withModernEra(legacy: McpEndpoint): McpEndpoint {
  return {
    post: (input) => routePost(input, legacy),
    get: (input) => sessionOperation(input, legacy.get),
    delete: (input) => sessionOperation(input, legacy.delete),
  };
}
