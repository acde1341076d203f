/**
 * Which era a parsed POST to /mcp belongs to, decided once per request from its body (the header
 * only cross-checks): a `_meta["io.modelcontextprotocol/protocolVersion"]` claim names the version
 * that serves it; `initialize` and claim-less traffic go to the session era. The rules follow the
 * SDK v2's `classifyInboundRequest` (docs/mcp-2026-07-28.md, "Choosing the era").
 */
import type { ClaimedMessage } from "../http/mcp-endpoint";
import { isRecord, type JsonObject } from "../json";
import { headerMismatch, HttpProtocolError, invalidEnvelope, ErrorCode, type RequestId } from "../protocol/errors";
import type { EraTable } from "./table";

const PROTOCOL_VERSION_META = "io.modelcontextprotocol/protocolVersion";
const CAPABILITIES_META = "io.modelcontextprotocol/clientCapabilities";

export type Route =
  /** `initialize`, a session's traffic, anything that names no version: the session era. */
  | { kind: "session" }
  /** A request that names its version: the claim, or the header alone for a notification. */
  | { kind: "claimed"; version: string; message: ClaimedMessage }
  | { kind: "reject"; id: RequestId | null; error: HttpProtocolError };

const isId = (value: unknown): value is RequestId =>
  typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

function metaOf(params: unknown): JsonObject | undefined {
  return isRecord(params) && isRecord(params["_meta"]) ? params["_meta"] : undefined;
}

function hasClaim(message: unknown): boolean {
  const meta = isRecord(message) ? metaOf(message["params"]) : undefined;
  return meta !== undefined && Object.hasOwn(meta, PROTOCOL_VERSION_META);
}

const notSingleRequest = (id: RequestId | null, why: string, newest: string): Route => ({
  kind: "reject",
  id,
  error: new HttpProtocolError(
    ErrorCode.InvalidRequest,
    `Invalid Request: ${why} A ${newest} POST carries exactly one JSON-RPC 2.0 request or notification.`,
    400,
  ),
});

/** Where `body` (parsed) goes, given the `MCP-Protocol-Version` header and the eras the table lists. */
export function classifyPost(
  versionHeader: string | null,
  body: unknown,
  eras: Pick<EraTable, "isPerRequest" | "newest">,
): Route {
  const header = versionHeader?.trim() ?? null;
  const perRequestHeader = eras.isPerRequest(header);
  const newest = eras.newest.revision;
  if (Array.isArray(body)) {
    if (body.some(hasClaim) || perRequestHeader)
      return notSingleRequest(null, `batches are not part of ${newest}.`, newest);
    return { kind: "session" };
  }
  const claimed = hasClaim(body);
  if (!isRecord(body) || typeof body["method"] !== "string") {
    return claimed || perRequestHeader
      ? notSingleRequest(null, "the body is not a JSON-RPC request or notification.", newest)
      : { kind: "session" };
  }
  const method = body["method"];
  const rawId = body["id"];
  const id = isId(rawId) ? rawId : null;
  const params = body["params"];
  if (claimed || perRequestHeader) {
    const shapeOk =
      body["jsonrpc"] === "2.0" && (rawId === undefined || isId(rawId)) && (params === undefined || isRecord(params));
    if (!shapeOk)
      return notSingleRequest(
        id,
        'the message is not a valid JSON-RPC 2.0 request (jsonrpc "2.0", a string or number id, object params).',
        newest,
      );
  }
  const message: ClaimedMessage = {
    ...(rawId !== undefined && isId(rawId) && { id: rawId }),
    method,
    params: isRecord(params) ? params : {},
  };

  if (claimed) {
    const claim = metaOf(params)?.[PROTOCOL_VERSION_META];
    if (typeof claim !== "string")
      return {
        kind: "reject",
        id,
        error: invalidEnvelope(`"${PROTOCOL_VERSION_META}" must be a protocol version string such as "${newest}".`),
      };
    if (header !== null && header !== claim) {
      return {
        kind: "reject",
        id,
        error: headerMismatch(
          `the MCP-Protocol-Version header "${header.slice(0, 64)}" does not match the body's protocol version "${claim.slice(0, 64)}".`,
        ),
      };
    }
    // A session-era version named the per-request way is served by its own era, which reads the body as it always did.
    return { kind: "claimed", version: claim, message: { ...message, claimedVersion: claim } };
  }
  if (method === "initialize") {
    if (header !== null && perRequestHeader)
      return {
        kind: "reject",
        id,
        error: headerMismatch(
          `initialize is the 2025 handshake and cannot be sent with MCP-Protocol-Version ${header}; in ${header} every request carries its own _meta.`,
        ),
      };
    return { kind: "session" };
  }
  if (header !== null && perRequestHeader) {
    // No claim under a per-request header: a notification is served on the header; a request is malformed.
    if (message.id === undefined && rawId === undefined) return { kind: "claimed", version: header, message };
    return {
      kind: "reject",
      id,
      error: invalidEnvelope(
        `the MCP-Protocol-Version header names ${header}, but params._meta lacks "${PROTOCOL_VERSION_META}" and "${CAPABILITIES_META}".`,
      ),
    };
  }
  return { kind: "session" };
}
