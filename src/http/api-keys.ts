/**
 * API keys (the API_KEYS secret): `name:token` pairs, a token optionally given as
 * `sha256:<hex>` so no plaintext need be stored; matched in constant time.
 */

export interface ApiKey {
  name: string;
  /** SHA-256 of the token: plaintext tokens are hashed on load, `sha256:<hex>` ones are stored so. */
  digest: Uint8Array;
}

export type ApiKeyConfig = { ok: true; keys: ApiKey[] } | { ok: false; message: string };

const NAME = /^[A-Za-z0-9._@+-]{1,64}$/;
const HEX_DIGEST = /^sha256:([0-9a-fA-F]{64})$/;

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

function hexBytes(hex: string): Uint8Array {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

/**
 * `alice:tokA,bob:sha256:<64 hex>`: comma-separated `name:token` pairs. A name may appear
 * twice (old and new key during a rotation). A malformed list fails closed, naming the entry.
 */
export async function parseApiKeys(raw: string): Promise<ApiKeyConfig> {
  const keys: ApiKey[] = [];
  const entries = raw
    .split(",")
    .map((entry) => entry.trim())
    .filter((entry) => entry !== "");
  for (const [index, entry] of entries.entries()) {
    const colon = entry.indexOf(":");
    const name = colon > 0 ? entry.slice(0, colon) : "";
    const token = colon > 0 ? entry.slice(colon + 1) : "";
    if (!NAME.test(name) || token === "") {
      return {
        ok: false,
        message: `API_KEYS entry ${index + 1} is not "name:token" (name: letters, digits, . _ @ + -, up to 64).`,
      };
    }
    if (token.startsWith("sha256:")) {
      const match = HEX_DIGEST.exec(token);
      if (!match?.[1])
        return {
          ok: false,
          message: `API_KEYS entry ${index + 1} ("${name}"): a sha256: token must be 64 hex digits.`,
        };
      keys.push({ name, digest: hexBytes(match[1]) });
    } else {
      keys.push({ name, digest: await sha256(token) });
    }
  }
  return keys.length > 0 ? { ok: true, keys } : { ok: false, message: "API_KEYS is set but holds no name:token pair." };
}

/** Equal-length comparison whose time does not depend on where the bytes differ. */
function equalDigests(a: Uint8Array, b: Uint8Array): boolean {
  const subtle = crypto.subtle as SubtleCrypto & {
    timingSafeEqual?: (x: ArrayBufferView, y: ArrayBufferView) => boolean;
  };
  if (typeof subtle.timingSafeEqual === "function") return subtle.timingSafeEqual(a, b);
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

/**
 * The key's name for a presented token, or undefined. Both sides are SHA-256 digests of equal
 * length and every key is compared, so neither token length nor position leaks through timing.
 */
export async function matchApiKey(keys: readonly ApiKey[], token: string): Promise<string | undefined> {
  const digest = await sha256(token);
  let found: string | undefined;
  for (const key of keys) {
    if (equalDigests(key.digest, digest) && found === undefined) found = key.name;
  }
  return found;
}

/**
 * Parsed once per isolate per distinct API_KEYS value (hashing on every request is waste). The parsed
 * value is kept, never the promise: a request must not await work another request started
 * (docs/core.md, "No request awaits another's I/O"); the first requests at once each parse it.
 */
let cached: { raw: string; config: ApiKeyConfig } | undefined;
export async function apiKeys(raw: string): Promise<ApiKeyConfig> {
  if (cached?.raw === raw) return cached.config;
  const config = await parseApiKeys(raw);
  cached = { raw, config };
  return config;
}
