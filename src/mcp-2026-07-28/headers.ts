/**
 * Standard request headers (streamable-http.mdx, "Request Metadata" and "Server Validation"):
 * `MCP-Protocol-Version` and `Mcp-Method` on every request, `Mcp-Name` mirroring the body's
 * name, uri or taskId. Missing, malformed or disagreeing values are `-32020` on HTTP 400, so a
 * router that trusts the headers can never be steered to another tool or task than the body names.
 */
import type { ClaimedMessage } from "../http/mcp-endpoint";
import { headerMismatch } from "../protocol/errors";
import { HEADER } from "./protocol";

/** Which body field `Mcp-Name` mirrors, per method (SEP-2243, and the Tasks extension's routing headers). */
const NAME_SOURCE: Readonly<Record<string, string>> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
  "tasks/get": "taskId",
  "tasks/update": "taskId",
  "tasks/cancel": "taskId",
};

const SENTINEL = /^=\?base64\?(.*)\?=$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Visible ASCII, space and tab: what a plain (not Base64) header value may hold. */
const PLAIN = /^[\x20-\x7e\t]*$/;

/** The header's value as the client meant it, or undefined when its encoding is invalid. */
export function decodeHeaderValue(raw: string): string | undefined {
  const sentinel = SENTINEL.exec(raw);
  if (!sentinel) return PLAIN.test(raw) ? raw : undefined;
  const encoded = sentinel[1] ?? "";
  if (!BASE64.test(encoded)) return undefined;
  const bytes = Uint8Array.from(atob(encoded), (char) => char.charCodeAt(0));
  try {
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return undefined;
  }
}

const shown = (value: string): string => JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);

export function checkStandardHeaders(headers: Headers, message: ClaimedMessage): void {
  const isRequest = message.id !== undefined;
  const methodHeader = headers.get(HEADER.method)?.trim();
  if (isRequest) {
    if (headers.get(HEADER.protocolVersion) === null)
      throw headerMismatch(`the ${HEADER.protocolVersion} header is required on every request.`);
    if (methodHeader === undefined)
      throw headerMismatch(
        `the ${HEADER.method} header is required on every request; send ${HEADER.method}: ${message.method.slice(0, 64)}.`,
      );
  }
  if (methodHeader !== undefined && methodHeader !== message.method) {
    throw headerMismatch(
      `${HEADER.method} header value ${shown(methodHeader)} does not match body method ${shown(message.method)}.`,
    );
  }
  const field = isRequest && Object.hasOwn(NAME_SOURCE, message.method) ? NAME_SOURCE[message.method] : undefined;
  if (field === undefined) return;
  const bodyValue = message.params[field];
  const rawName = headers.get(HEADER.name)?.trim();
  if (rawName === undefined) {
    if (typeof bodyValue === "string")
      throw headerMismatch(
        `the ${HEADER.name} header is required on ${message.method}; it must carry params.${field} (Base64-encoded as =?base64?…?= when not plain ASCII).`,
      );
    return;
  }
  const name = decodeHeaderValue(rawName);
  if (name === undefined)
    throw headerMismatch(
      `the ${HEADER.name} header holds characters a header cannot carry or an invalid =?base64?…?= value.`,
    );
  // A body without the field fails params validation next, with the field named.
  if (typeof bodyValue === "string" && name !== bodyValue) {
    throw headerMismatch(
      `${HEADER.name} header value ${shown(name)} does not match body params.${field} ${shown(bodyValue)}.`,
    );
  }
}
