/**
 * The 2026-07-28 row of the era table: POST for a request that names this version (or a version no
 * row serves: the answer lists the supported ones), and the refusals of a request the router could
 * not classify because its header named this version but its body could not be read or parsed.
 */
import type { EraAdapter } from "../eras";
import { parseJsonInput } from "../http/json-input";
import type { McpRequest } from "../http/mcp-endpoint";
import { ErrorCode, HttpProtocolError, errorResponse } from "../protocol/errors";
import { handlePost20260728, methodNotAllowed20260728 } from "./endpoint";
import { VERSION_2026_07_28 } from "./protocol";

/** A refusal made before the message was known (media type, size, JSON): the header named this version. */
const refuse = (status: number, code: number, message: string): Response =>
  errorResponse(null, new HttpProtocolError(code, message, status));

function post(input: McpRequest): Promise<Response> {
  const { body, message } = input;
  if (message) return handlePost20260728({ ...input, message });
  if (!body)
    return Promise.resolve(
      refuse(
        415,
        ErrorCode.InvalidRequest,
        "Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json.",
      ),
    );
  if (!body.ok)
    return Promise.resolve(
      refuse(body.status, body.status === 413 ? ErrorCode.InvalidRequest : ErrorCode.ParseError, body.message),
    );
  // Only a body that failed to parse arrives with neither message nor JSON: say why, as parsing it again tells.
  const json = parseJsonInput(body.text);
  const reason = json.ok
    ? { code: ErrorCode.InvalidRequest, message: "Invalid Request: not a 2026-07-28 message." }
    : { code: json.reason === "parse" ? ErrorCode.ParseError : ErrorCode.InvalidRequest, message: json.message };
  return Promise.resolve(refuse(400, reason.code, reason.message));
}

export const mcp20260728: EraAdapter = {
  revision: VERSION_2026_07_28,
  versions: [VERSION_2026_07_28],
  framing: "per-request",
  post,
  get: (input) => Promise.resolve(methodNotAllowed20260728(input.request.method)),
  delete: (input) => Promise.resolve(methodNotAllowed20260728(input.request.method)),
};
