/**
 * The names of MCP 2026-07-28 this adapter speaks: the version, the reserved `_meta` keys and
 * headers, and every version the endpoint serves (its error codes are in src/protocol/errors.ts).
 */
import { TASKS_EXTENSION_ID_V2 } from "@modelcontextprotocol/ext-tasks/core/v2";

export const VERSION_2026_07_28 = "2026-07-28";

/**
 * Versions the 2025 adapter negotiates through `initialize`: the SDK v1's SUPPORTED_PROTOCOL_VERSIONS,
 * written out because importing them loads the SDK v1's every schema, which an adopter's Worker
 * (SDK v2 only) would bundle and build at each isolate start for this list alone.
 * test/unit/era-versions.test.ts holds the two lists equal.
 */
export const VERSIONS_THROUGH_INITIALIZE: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
  "2024-10-07",
];

/** What `server/discover` and `-32022` name: 2026-07-28 first, then every version served through `initialize`. */
export const SUPPORTED_VERSIONS: readonly string[] = [VERSION_2026_07_28, ...VERSIONS_THROUGH_INITIALIZE];

export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

export const TASKS_EXTENSION = TASKS_EXTENSION_ID_V2;
export const EVENTS_EXTENSION = "io.modelcontextprotocol/events";

export const HEADER = {
  protocolVersion: "MCP-Protocol-Version",
  method: "Mcp-Method",
  name: "Mcp-Name",
} as const;
