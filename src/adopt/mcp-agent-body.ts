/**
 * A session POST's body as the McpAgent lane reads it to route it (2025 names the method only in
 * the body): through the same bounded reader and depth-checked parser as every other body of the
 * template (src/http/body.ts, json-input.ts), whatever its framing (Content-Length or chunked), so
 * the lane's limits are the other lane's. What is not JSON passes on to the McpAgent unread.
 */
import { readBodyWithLimit } from "../http/body";
import { parseJsonInput } from "../http/json-input";
import { hasJsonContentType } from "../http/media-types";
import { ErrorCode, jsonRpcErrorResponse } from "../protocol/errors";

/** agents' own cap on a POST body (MAXIMUM_MESSAGE_SIZE_BYTES): what the McpAgent would accept, read to route it. */
export const MAX_ROUTED_BYTES = 4 * 1024 * 1024;

export type AgentBody =
  /** Not JSON: the McpAgent answers it as it would (agents' 415). */
  | { kind: "unread" }
  /** Read, but no body may go on from here (too large, unreadable, nested too deep): this answer. */
  | { kind: "refused"; response: Response }
  /** Read: its text (handed on as it came) and the message, when it parsed. */
  | { kind: "read"; text: string; bytes: number; message: unknown };

export async function readAgentBody(request: Request): Promise<AgentBody> {
  if (!hasJsonContentType(request)) return { kind: "unread" };
  const body = await readBodyWithLimit(request, MAX_ROUTED_BYTES);
  if (!body.ok)
    return {
      kind: "refused",
      response: jsonRpcErrorResponse(
        body.status,
        body.status === 413 ? ErrorCode.InvalidRequest : ErrorCode.ParseError,
        body.message,
      ),
    };
  const bytes = new TextEncoder().encode(body.text).byteLength;
  const json = parseJsonInput(body.text);
  if (json.ok) return { kind: "read", text: body.text, bytes, message: json.value };
  // Too deep to parse: refused whoever it was for, as every surface of the template refuses it.
  if (json.reason === "depth")
    return { kind: "refused", response: jsonRpcErrorResponse(400, ErrorCode.InvalidRequest, json.message) };
  // Not JSON: the McpAgent's parse error, in its words.
  return { kind: "read", text: body.text, bytes, message: undefined };
}

/** The engine's own limit on a body it serves (MAX_BODY_BYTES), as the other lane answers it. */
export const tooLargeResponse = (maxBytes: number): Response =>
  jsonRpcErrorResponse(413, ErrorCode.InvalidRequest, `Request body is larger than ${maxBytes} bytes.`);
