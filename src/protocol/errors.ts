/**
 * Protocol errors with clean messages. The SDK's McpError prefixes "MCP error <code>:";
 * the SDK only needs `code` and `message` to build the JSON-RPC error, so this is enough.
 */
export { ErrorCode } from "@modelcontextprotocol/sdk/types.js";

export class ProtocolError extends Error {
  override readonly name = "ProtocolError";
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}
