/**
 * The names of MCP 2026-07-28 this adapter speaks: the version, the reserved `_meta` keys,
 * the spec's own error codes, and which versions the endpoint serves in either era.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { TASKS_EXTENSION_ID_V2 } from "@modelcontextprotocol/ext-tasks/core/v2";

export const MODERN_VERSION = "2026-07-28";

/** Versions the 2025 adapter negotiates through `initialize` (the SDK v1 list it accepts). */
export const LEGACY_VERSIONS: readonly string[] = SUPPORTED_PROTOCOL_VERSIONS;

/** What `server/discover` and `-32022` name: the modern version first, then every legacy one. */
export const SUPPORTED_VERSIONS: readonly string[] = [MODERN_VERSION, ...LEGACY_VERSIONS];

export const isLegacyVersion = (version: string): boolean => LEGACY_VERSIONS.includes(version);

export const META = {
  protocolVersion: "io.modelcontextprotocol/protocolVersion",
  clientInfo: "io.modelcontextprotocol/clientInfo",
  clientCapabilities: "io.modelcontextprotocol/clientCapabilities",
  logLevel: "io.modelcontextprotocol/logLevel",
  serverInfo: "io.modelcontextprotocol/serverInfo",
  subscriptionId: "io.modelcontextprotocol/subscriptionId",
} as const;

export const TASKS_EXTENSION = TASKS_EXTENSION_ID_V2;

/** The codes 2026-07-28 reserves (basic/index.mdx, "Error Codes"); the JSON-RPC ones keep their meaning. */
export const ERROR = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  headerMismatch: -32020,
  missingCapability: -32021,
  unsupportedVersion: -32022,
} as const;

export const HEADER = {
  protocolVersion: "MCP-Protocol-Version",
  method: "Mcp-Method",
  name: "Mcp-Name",
} as const;
