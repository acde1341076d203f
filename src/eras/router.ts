/**
 * `/mcp` for every era in the table, decided per request: the `MCP-Protocol-Version` header names
 * the era before the body is read (a media type or size refusal is framed by that era); then the
 * body's claim, or its absence, picks the row (classify.ts). The body is read and parsed once,
 * here, within the shared JSON limits (src/http/json-input.ts): the claim is looked for in the
 * parsed value, never in the text, so any JSON spelling of its key counts. The adapter gets the
 * body and the parsed value, and reads or parses neither again.
 */
import { readBodyWithLimit } from "../http/body";
import { hasJsonContentType } from "../http/media-types";
import { parseJsonInput } from "../http/json-input";
import type { McpEndpoint, McpRequest } from "../http/mcp-endpoint";
import { errorResponse } from "../protocol/errors";
import { classifyPost } from "./classify";
import type { EraAdapter } from "./era";
import type { EraTable } from "./table";

const PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version";

/** The era the header names, or the session era when it names none this server serves. */
function eraOfHeader(request: Request, eras: EraTable): EraAdapter {
  const header = request.headers.get(PROTOCOL_VERSION_HEADER)?.trim();
  return (header !== undefined && eras.forVersion(header)) || eras.session;
}

async function routePost(input: McpRequest, eras: EraTable): Promise<Response> {
  const { request, settings } = input;
  const named = eraOfHeader(request, eras);
  if (!hasJsonContentType(request)) return named.post(input);
  const body = await readBodyWithLimit(request, settings.maxBodyBytes);
  if (!body.ok) return named.post({ ...input, body });
  const json = parseJsonInput(body.text);
  // Unparsed (or too deep to parse), a body claims no era: the header alone says who answers.
  if (!json.ok) return named.post({ ...input, body });
  const route = classifyPost(request.headers.get(PROTOCOL_VERSION_HEADER), json.value, eras);
  switch (route.kind) {
    case "session":
      return eras.session.post({ ...input, body, json: { value: json.value } });
    case "reject":
      return errorResponse(route.id, route.error);
    case "claimed": {
      const era = eras.forVersion(route.version) ?? eras.newest;
      return era.post({
        ...input,
        body,
        json: { value: json.value },
        ...(era.framing === "per-request" && { message: route.message }),
      });
    }
  }
}

/** `/mcp` served by the era table: each request reaches the one adapter its version names. */
export function routeByEra(eras: EraTable): McpEndpoint {
  return {
    post: (input) => routePost(input, eras),
    get: (input) => eraOfHeader(input.request, eras).get(input),
    delete: (input) => eraOfHeader(input.request, eras).delete(input),
  };
}
