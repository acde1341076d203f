/**
 * What makes two tool calls "the same call" for an idempotency key or a requestState: the tool and
 * its arguments, with object keys in a canonical order, digested. No walker of ours recurses over
 * the arguments: JSON.stringify visits them, within the depth every request body was held to where
 * it entered (src/http/json-input.ts).
 */
import { isRecord } from "../../json";

/** JSON with the keys of every object sorted, so the same value always has the same text. */
export const canonicalJson = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    isRecord(inner)
      ? Object.fromEntries(
          Object.keys(inner)
            .sort()
            .map((key) => [key, inner[key]]),
        )
      : inner,
  ) ?? "null";

/** SHA-256 of `text`, base64url. */
export async function sha256Base64url(text: string): Promise<string> {
  const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** The digest an idempotency key is bound to: the same tool with the same arguments (in any key order). */
export const callFingerprint = (tool: string, args: unknown): Promise<string> =>
  sha256Base64url(canonicalJson([tool, args ?? {}]));
