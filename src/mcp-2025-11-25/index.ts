/**
 * The MCP 2025-11-25 adapter (which also negotiates the older versions the SDK's Server accepts):
 * `/mcp` over Streamable HTTP with sessions, resumable streams and the tasks utility, and the
 * task observer that feeds its sessions' GET streams. src/index.ts plugs both in.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { EraAdapter } from "../eras";
import { handleMcpPost } from "./endpoint";
import { handleMcpGet } from "./resume";
import { endSession } from "./session";

export { sessionObserver } from "./session-observer";

/** The 2025-11-25 row of the era table: every version the SDK v1 `Server` negotiates through `initialize`. */
export const mcp20251125: EraAdapter = {
  revision: "2025-11-25",
  versions: SUPPORTED_PROTOCOL_VERSIONS,
  framing: "session",
  post: handleMcpPost,
  get: handleMcpGet,
  delete: (input) => endSession(input.request, input.env, input.principal),
};
