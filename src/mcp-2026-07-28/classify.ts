/**
 * Which era a POST to /mcp belongs to, decided once per request from its body (the header only
 * cross-checks): a `_meta["io.modelcontextprotocol/protocolVersion"]` claim makes it modern;
 * `initialize` and claim-less traffic stay with the 2025 adapter, exactly as before. The rules
 * follow the SDK v2's `classifyInboundRequest` (docs/mcp-2026-07-28.md, "Choosing the era").
 */
import { ModernError, headerMismatch, invalidEnvelope, type RequestId } from "./errors";
import { ERROR, META, MODERN_VERSION, isLegacyVersion } from "./protocol";

export interface ModernMessage {
  /** Absent for a notification. */
  id?: RequestId;
  method: string;
  params: Record<string, unknown>;
  /** The version the body claims; undefined for a notification served on the header alone. */
  claimedVersion?: string;
}

export type Classification =
  | { kind: "legacy" }
  | { kind: "modern"; message: ModernMessage }
  | { kind: "reject"; id: RequestId | null; error: ModernError };

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject => typeof value === "object" && value !== null && !Array.isArray(value);
const isId = (value: unknown): value is RequestId => typeof value === "string" || (typeof value === "number" && Number.isFinite(value));

/** A header naming this server's modern version (whatever the body says). */
export const namesModernVersion = (header: string | null): boolean => header?.trim() === MODERN_VERSION;

function metaOf(params: unknown): JsonObject | undefined {
  return isObject(params) && isObject(params["_meta"]) ? params["_meta"] : undefined;
}

export function hasClaim(message: unknown): boolean {
  const meta = isObject(message) ? metaOf(message["params"]) : undefined;
  return meta !== undefined && Object.hasOwn(meta, META.protocolVersion);
}

const notSingleRequest = (id: RequestId | null, why: string) =>
  ({ kind: "reject", id, error: new ModernError(ERROR.invalidRequest, `Invalid Request: ${why} A 2026-07-28 POST carries exactly one JSON-RPC 2.0 request or notification.`, 400) }) as const;

export function classifyPost(versionHeader: string | null, body: unknown): Classification {
  const header = versionHeader?.trim() ?? null;
  const modernHeader = namesModernVersion(header);
  if (Array.isArray(body)) {
    if (body.some(hasClaim) || modernHeader) return notSingleRequest(null, "batches are not part of 2026-07-28.");
    return { kind: "legacy" };
  }
  const claimed = hasClaim(body);
  if (!isObject(body) || typeof body["method"] !== "string") {
    return claimed || modernHeader ? notSingleRequest(null, "the body is not a JSON-RPC request or notification.") : { kind: "legacy" };
  }
  const method = body["method"];
  const rawId = body["id"];
  const id = isId(rawId) ? rawId : null;
  const params = body["params"];
  if (claimed || modernHeader) {
    const shapeOk = body["jsonrpc"] === "2.0" && (rawId === undefined || isId(rawId)) && (params === undefined || isObject(params));
    if (!shapeOk) return notSingleRequest(id, "the message is not a valid JSON-RPC 2.0 request (jsonrpc \"2.0\", a string or number id, object params).");
  }
  const message: ModernMessage = { ...(rawId !== undefined && isId(rawId) && { id: rawId }), method, params: isObject(params) ? params : {} };

  if (claimed) {
    const claim = metaOf(params)?.[META.protocolVersion];
    if (typeof claim !== "string") return { kind: "reject", id, error: invalidEnvelope(`"${META.protocolVersion}" must be a protocol version string such as "${MODERN_VERSION}".`) };
    if (header !== null && header !== claim) {
      return { kind: "reject", id, error: headerMismatch(`the MCP-Protocol-Version header "${header.slice(0, 64)}" does not match the body's protocol version "${claim.slice(0, 64)}".`) };
    }
    // A 2025 version named the new way is still a 2025 request: the 2025 adapter serves it.
    if (isLegacyVersion(claim)) return { kind: "legacy" };
    return { kind: "modern", message: { ...message, claimedVersion: claim } };
  }
  if (method === "initialize") {
    if (modernHeader) return { kind: "reject", id, error: headerMismatch(`initialize is the 2025 handshake and cannot be sent with MCP-Protocol-Version ${MODERN_VERSION}; in 2026-07-28 every request carries its own _meta.`) };
    return { kind: "legacy" };
  }
  if (modernHeader) {
    // No claim under a modern header: a notification is served on the header; a request is malformed.
    if (message.id === undefined && rawId === undefined) return { kind: "modern", message };
    return { kind: "reject", id, error: invalidEnvelope(`the MCP-Protocol-Version header names ${MODERN_VERSION}, but params._meta lacks "${META.protocolVersion}" and "${META.clientCapabilities}".`) };
  }
  return { kind: "legacy" };
}
