/**
 * /mcp serves two protocol eras on one endpoint, decided per request: a body whose `_meta` claims
 * 2026-07-28 is served here, everything else (initialize, sessions, the GET stream) goes to the
 * legacy adapter in front of which this sits, unchanged — the SDK v2's `isLegacyRequest` pattern.
 * The body is read and parsed once, here, within the shared JSON limits (src/http/json-input.ts):
 * the claim is looked for in the parsed value, never in the text, so any JSON spelling of its key
 * counts. The legacy adapter gets the body and the parsed value, and reads or parses neither again.
 */
import { readBodyWithLimit } from "../http/body";
import { parseJsonInput } from "../http/json-input";
import type { McpEndpoint, McpRequest } from "../http/mcp-endpoint";
import { classifyPost, namesModernVersion } from "./classify";
import { handleModernPost, modernMethodNotAllowed, modernTransportError } from "./endpoint";
import { errorResponse } from "./errors";
import { ERROR, HEADER } from "./protocol";

const isJson = (request: Request): boolean => /^application\/json\b/i.test(request.headers.get("Content-Type") ?? "");

async function routePost(input: McpRequest, legacy: McpEndpoint): Promise<Response> {
  const { request, settings } = input;
  const versionHeader = request.headers.get(HEADER.protocolVersion);
  const modernHeader = namesModernVersion(versionHeader);
  if (!isJson(request)) {
    return modernHeader ? modernTransportError(415, ERROR.invalidRequest, "Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json.") : legacy.post(input);
  }
  const body = await readBodyWithLimit(request, settings.maxBodyBytes);
  if (!body.ok) return modernHeader ? modernTransportError(body.status, body.status === 413 ? ERROR.invalidRequest : ERROR.parse, body.message) : legacy.post({ ...input, body });
  const json = parseJsonInput(body.text);
  if (!json.ok) {
    // Unparsed (or too deep to parse), a body claims no era: the header alone says who answers.
    return modernHeader ? modernTransportError(400, json.reason === "parse" ? ERROR.parse : ERROR.invalidRequest, json.message) : legacy.post({ ...input, body });
  }
  const parsed = json.value;
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
