/**
 * The MCP 2025-11-25 adapter (which also negotiates the older versions the SDK's Server accepts):
 * `/mcp` over Streamable HTTP with sessions, resumable streams and the tasks utility, and the
 * task observer that feeds its sessions' GET streams. src/index.ts plugs both in.
 */
import type { McpEndpoint } from "../http/mcp-endpoint";
import { handleMcpPost } from "./endpoint";
import { handleMcpGet } from "./resume";
import { endSession } from "./session";

export { sessionObserver } from "./session-observer";

export const mcp20251125: McpEndpoint = {
  post: handleMcpPost,
  get: handleMcpGet,
  delete: (input) => endSession(input.request, input.env, input.principal),
};
