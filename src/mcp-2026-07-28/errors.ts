/**
 * 2026-07-28 errors: a JSON-RPC error plus the HTTP status the transport answers it with.
 * Errors a handler raises are in-band (HTTP 200); the spec's own errors travel on 400 or 404
 * so a dual-era client recognises a modern server (streamable-http.mdx, "Backward Compatibility").
 */
import { ProtocolError } from "../protocol/errors";
import { ERROR, SUPPORTED_VERSIONS, TASKS_EXTENSION } from "./protocol";

export type RequestId = string | number;

export class ModernError extends ProtocolError {
  constructor(
    code: number,
    message: string,
    readonly httpStatus = 200,
    readonly data?: unknown,
  ) {
    super(code, message);
  }
}

/** A header is missing, malformed or disagrees with the body (HTTP 400, `-32020`). */
export const headerMismatch = (message: string): ModernError => new ModernError(ERROR.headerMismatch, `Header mismatch: ${message}`, 400);

export function unsupportedVersion(requested: string): ModernError {
  const shown = requested.slice(0, 64);
  return new ModernError(ERROR.unsupportedVersion, `Unsupported protocol version "${shown}": this server speaks ${SUPPORTED_VERSIONS.join(", ")} (2025 versions through initialize).`, 400, {
    supported: [...SUPPORTED_VERSIONS],
    requested: shown,
  });
}

/** The request needs the Tasks extension the client did not declare (HTTP 400, `-32021`). */
export const tasksExtensionRequired = (why: string): ModernError =>
  new ModernError(ERROR.missingCapability, `Missing required client capability: ${why} Declare "${TASKS_EXTENSION}" under _meta["io.modelcontextprotocol/clientCapabilities"].extensions.`, 400, {
    requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
  });

/** A tool that only runs as a task, called without the extension: `-32021` whose message is a sentence for the model. */
export const taskOnlyTool = (sentence: string): ModernError =>
  new ModernError(ERROR.missingCapability, sentence, 400, { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });

/** A malformed per-request envelope: `-32602` on HTTP 400, as basic/index.mdx requires. */
export const invalidEnvelope = (message: string): ModernError => new ModernError(ERROR.invalidParams, `Invalid _meta: ${message}`, 400);

export const methodNotFound = (method: string): ModernError =>
  new ModernError(ERROR.methodNotFound, `Method not found: "${method.slice(0, 64)}" is not a 2026-07-28 method this server offers. Call server/discover for its capabilities.`, 404);

/** The JSON-RPC error object for any thrown value; anything unexpected is an internal error without details. */
export function toJsonRpcError(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof ModernError) return { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) };
  if (error instanceof ProtocolError) return { code: error.code, message: error.message };
  return { code: ERROR.internal, message: "Internal error." };
}

export const httpStatusOf = (error: unknown): number => (error instanceof ModernError ? error.httpStatus : 200);

export function errorResponse(id: RequestId | null, error: unknown, headers?: HeadersInit): Response {
  return Response.json({ jsonrpc: "2.0", id, error: toJsonRpcError(error) }, { status: httpStatusOf(error), headers });
}
