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
} as const;

export class ProtocolError extends Error {
  override readonly name = "ProtocolError";
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export const invalidParams = (message: string): ProtocolError => new ProtocolError(ErrorCode.InvalidParams, message);

/** Unknown, expired and foreign tasks all get exactly this error. */
export const taskNotFound = (): ProtocolError => invalidParams("Failed to retrieve task: Task not found. Check the taskId; tasks are deleted once their ttl has passed.");

/** A cursor no earlier page of `method` issued (or one changed on the way). */
export const invalidCursor = (method: string): ProtocolError => invalidParams(`Invalid cursor: pass back a nextCursor from an earlier ${method} response unchanged.`);

/** An HTTP response whose body is one JSON-RPC error with a null id. */
export function jsonRpcErrorResponse(status: number, code: number, message: string, headers?: HeadersInit): Response {
  return Response.json({ jsonrpc: "2.0", id: null, error: { code, message } }, { status, headers });
}
