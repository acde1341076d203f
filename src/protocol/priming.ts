/**
 * Which negotiated protocol versions define the SSE priming event: an event id with empty data, sent
 * first so a client holds a resume point before any message (2025-11-25 transports, SEP-1699). Older
 * versions have no such event, and their clients' SDKs JSON-parse every `data:` line: an empty one
 * fails there (Gemini CLI 0.61.0 drops the server on it). 2026-07-28 streams carry no ids at all.
 */

/** The versions whose clients expect (and skip) priming events. Unknown versions get none. */
const PRIMING_VERSIONS: ReadonlySet<string> = new Set(["2025-11-25"]);

/** What a request without `MCP-Protocol-Version` and without a session speaks (2025-06-18 transports). */
export const UNSTATED_PROTOCOL_VERSION = "2025-03-26";

/** Whether a stream to a client of `protocolVersion` may carry priming events. */
export const sendsPrimingEvents = (protocolVersion: string): boolean => PRIMING_VERSIONS.has(protocolVersion);

/**
 * The protocol version a request's streams are written for: the one its session negotiated at
 * `initialize` (what the client's SDK was built to parse), else its `MCP-Protocol-Version` header,
 * else the version the transport spec says to assume.
 */
export const streamProtocolVersion = (negotiated: string | undefined, header: string | null): string =>
  negotiated ?? header ?? UNSTATED_PROTOCOL_VERSION;
