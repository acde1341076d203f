/**
 * What reaches the provider's token endpoint and /authorize: a body read within TOKEN_BODY_MAX_BYTES
 * (413 past it), and a client_id short enough to be a KV key. The provider keeps a registered client
 * under `client:<id>` and KV refuses keys over 512 bytes, so a longer id failed the KV read and
 * answered 500 (found by the fuzz test); no client can have one, so it is refused as invalid_client.
 */
import { readBodyWithLimit } from "./body";

export const TOKEN_BODY_MAX_BYTES = 16 * 1024;
/** 512 bytes of KV key, less the provider's `client:` prefix. */
export const MAX_CLIENT_ID_BYTES = 512 - "client:".length;

const tooLong = (id: string | null | undefined): boolean =>
  id != null && new TextEncoder().encode(id).byteLength > MAX_CLIENT_ID_BYTES;

export const clientIdRefusal = {
  error: "invalid_client",
  error_description: `No client has a client_id longer than ${MAX_CLIENT_ID_BYTES} bytes.`,
} as const;

/** Whether an /authorize query names a client_id no client can have. */
export const impossibleClientId = (url: string): boolean => tooLong(new URL(url).searchParams.get("client_id"));

/** The client id of an `Authorization: Basic` header (RFC 6749 §2.3.1), if it has one. */
function basicClientId(header: string | null): string | undefined {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? "");
  if (!match?.[1]) return undefined;
  try {
    const decoded = atob(match[1]);
    return decoded.slice(0, Math.max(0, decoded.indexOf(":")));
  } catch {
    return undefined;
  }
}

/** A request whose body was read by us, for the provider to read again. */
export function rewrapped(request: Request, text: string): Request {
  const headers = new Headers(request.headers);
  headers.delete("Content-Length");
  return new Request(request.url, { method: request.method, headers, body: text });
}

export type Admission =
  | { ok: true; request: Request }
  | { ok: false; status: 400 | 401 | 413; body: Record<string, string> };
const unknownClient: Admission = { ok: false, status: 401, body: clientIdRefusal };

/** The token request, bounded and with a possible client_id, or our refusal. */
export async function admitTokenRequest(request: Request): Promise<Admission> {
  if (request.method !== "POST") return { ok: true, request };
  if (tooLong(basicClientId(request.headers.get("Authorization")))) return unknownClient;
  const body = await readBodyWithLimit(request, TOKEN_BODY_MAX_BYTES);
  if (!body.ok) {
    return { ok: false, status: body.status, body: { error: "invalid_request", error_description: body.message } };
  }
  if (tooLong(new URLSearchParams(body.text).get("client_id"))) return unknownClient;
  return { ok: true, request: rewrapped(request, body.text) };
}
