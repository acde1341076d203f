/**
 * One protocol era's adapter as the era table sees it: the `/mcp` routes it serves, the versions
 * it speaks, and how a client reaches it. A new revision is a folder that exports one of these
 * and a row in src/index.ts's table (docs/architecture.md, "Protocol eras").
 */
import type { McpEndpoint } from "../http/mcp-endpoint";

/**
 * How a request names its era: through an `initialize` handshake and a session (2025-11-25 and
 * older), or on every request, by `_meta["io.modelcontextprotocol/protocolVersion"]` and the
 * `MCP-Protocol-Version` header (2026-07-28 on).
 */
export type Framing = "session" | "per-request";

export interface EraAdapter extends McpEndpoint {
  /** The revision the adapter is written for: its folder's name. */
  readonly revision: string;
  /** Every protocol version it serves, the revision first. */
  readonly versions: readonly string[];
  readonly framing: Framing;
}
