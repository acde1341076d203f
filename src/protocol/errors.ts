/**
 * Protocol errors, the same in every era: JSON-RPC codes, an error handlers throw with a clean
 * message (the SDK's McpError prefixes "MCP error <code>:"), and the HTTP answer that carries a
 * JSON-RPC error when a request fails before any handler runs.
 */

export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** The client stopped reading (the SDK's ConnectionClosed). */
  ConnectionClosed: -32000,
  /** The call was cancelled or timed out (the SDK's RequestTimeout). */
  RequestTimeout: -32001,
  /** 2026-07-28 on: a header is missing, malformed or disagrees with the body. */
  HeaderMismatch: -32020,
  /** 2026-07-28 on: the request needs a client capability it did not declare. */
  MissingRequiredClientCapability: -32021,
  /** 2026-07-28 on: the request names a version this server does not serve. */
  UnsupportedProtocolVersion: -32022,
} as const;

export type RequestId = string | number;

export class ProtocolError extends Error {
  override readonly name = "ProtocolError";
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A protocol error with the HTTP status its answer travels on: errors a handler raises are in-band
 * (HTTP 200); the per-request eras' own errors travel on 400 or 404 so a dual-era client
 * recognises such a server (2026-07-28 streamable-http.mdx, "Backward Compatibility").
 */
export class HttpProtocolError extends ProtocolError {
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
export const headerMismatch = (message: string): HttpProtocolError =>
  new HttpProtocolError(ErrorCode.HeaderMismatch, `Header mismatch: ${message}`, 400);

/** A malformed per-request envelope: `-32602` on HTTP 400, as 2026-07-28 basic/index.mdx requires. */
export const invalidEnvelope = (message: string): HttpProtocolError =>
  new HttpProtocolError(ErrorCode.InvalidParams, `Invalid _meta: ${message}`, 400);

/** The JSON-RPC error object for any thrown value; anything unexpected is an internal error without details. */
export function toJsonRpcError(error: unknown): { code: number; message: string; data?: unknown } {
  if (error instanceof HttpProtocolError)
    return { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) };
  if (error instanceof ProtocolError) return { code: error.code, message: error.message };
  return { code: ErrorCode.InternalError, message: "Internal error." };
}

export const httpStatusOf = (error: unknown): number => (error instanceof HttpProtocolError ? error.httpStatus : 200);

/** The HTTP answer carrying `error` for request `id`, on the status the error travels on. */
export function errorResponse(id: RequestId | null, error: unknown, headers?: HeadersInit): Response {
  return Response.json({ jsonrpc: "2.0", id, error: toJsonRpcError(error) }, { status: httpStatusOf(error), headers });
}

export const invalidParams = (message: string): ProtocolError => new ProtocolError(ErrorCode.InvalidParams, message);

/** Unknown, expired and foreign tasks all get exactly this error. */
export const taskNotFound = (): ProtocolError =>
  invalidParams(
    "Failed to retrieve task: Task not found. Check the taskId; tasks are deleted once their ttl has passed.",
  );

/** A cursor no earlier page of `method` issued (or one changed on the way). */
export const invalidCursor = (method: string): ProtocolError =>
  invalidParams(`Invalid cursor: pass back a nextCursor from an earlier ${method} response unchanged.`);

/** An HTTP response whose body is one JSON-RPC error with a null id. */
export function jsonRpcErrorResponse(status: number, code: number, message: string, headers?: HeadersInit): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status, headers });
}
