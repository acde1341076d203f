/**
 * Standard Webhooks signatures (https://www.standardwebhooks.com): the headers
 * `webhook-id`, `webhook-timestamp` and `webhook-signature: v1,<base64 HMAC-SHA256
 * of "id.timestamp.body">`, keyed with the base64-decoded part of `whsec_<base64>`.
 */

const SECRET_PREFIX = "whsec_";

/** The raw key of a `whsec_<base64>` secret (the prefix is optional), or undefined if it is not valid base64. */
export function decodeWebhookSecret(secret: string): Uint8Array | undefined {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  if (encoded.length === 0 || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return undefined;
  try {
    return Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

function toBase64(bytes: ArrayBuffer): string {
  let binary = "";
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** `v1,<base64 signature>` over `${id}.${timestamp}.${body}`. */
export async function signPayload(
  key: Uint8Array,
  id: string,
  timestampSeconds: number,
  body: string,
): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign(
    "HMAC",
    cryptoKey,
    new TextEncoder().encode(`${id}.${timestampSeconds}.${body}`),
  );
  return `v1,${toBase64(mac)}`;
}

/** The three Standard Webhooks headers for one delivery attempt, plus the JSON content type. */
export async function webhookHeaders(
  key: Uint8Array,
  id: string,
  body: string,
  now = Date.now(),
): Promise<Record<string, string>> {
  const timestamp = Math.floor(now / 1000);
  return {
    "content-type": "application/json",
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": await signPayload(key, id, timestamp, body),
  };
}
