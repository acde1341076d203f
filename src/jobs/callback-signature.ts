/**
 * A callback's URL as a signed capability (docs/writing-tools.md, "Waiting for an outside system"):
 * an HMAC-SHA256 over the task's object id, the callback's name, its token and its expiry, under a
 * key derived (HKDF) from the Worker's CALLER_KEY, so the Worker refuses a forged or expired URL
 * before any Durable Object is reached. CALLER_KEY_PREVIOUS still verifies after a rotation. Without
 * a key (local dev) URLs are unsigned and the task's object checks their token alone.
 */
import * as z from "zod";
import { secretKeyBytes } from "./caller-keys";

const SecretsSchema = z.object({
  CALLER_KEY: z.string().optional(),
  CALLER_KEY_PREVIOUS: z.string().optional(),
});

/** What a callback URL's signature covers. */
export interface CallbackClaim {
  objectId: string;
  name: string;
  token: string;
  expiresAt: number;
}

export interface CallbackKeys {
  /** Signs new URLs and verifies. */
  current?: CryptoKey;
  /** Verifies URLs signed before a rotation. */
  previous?: CryptoKey;
}

/** HKDF's info: the same secret seals callers (caller-seal.ts); this key is for callback URLs alone. */
const INFO = new TextEncoder().encode("mcp-task-worker callback URL v1");

/** A signature's form in a URL: 32 bytes, base64url without padding. */
export const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

// Derived once per isolate and secret: a run opening a callback and every POST would repeat it.
const derived = new Map<string, Promise<CryptoKey | undefined>>();

/** The HMAC key derived from a 32-byte base64 secret; undefined for one that is not (caller-keys.ts says why). */
function derive(name: string, secret: string): Promise<CryptoKey | undefined> {
  let key = derived.get(secret);
  if (!key) {
    key = (async () => {
      const raw = secretKeyBytes(name, secret);
      if (typeof raw === "string") return undefined;
      const base = await crypto.subtle.importKey("raw", raw, "HKDF", false, ["deriveKey"]);
      return crypto.subtle.deriveKey(
        { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: INFO },
        base,
        { name: "HMAC", hash: "SHA-256", length: 256 },
        false,
        ["sign", "verify"],
      );
    })();
    derived.set(secret, key);
  }
  return key;
}

/** The Worker's callback keys, from its secrets (a trust edge: parsed). */
export async function callbackKeys(env: unknown): Promise<CallbackKeys> {
  const parsed = SecretsSchema.safeParse(env);
  if (!parsed.success) return {};
  const { CALLER_KEY, CALLER_KEY_PREVIOUS } = parsed.data;
  const current = CALLER_KEY === undefined ? undefined : await derive("CALLER_KEY", CALLER_KEY);
  const previous =
    CALLER_KEY_PREVIOUS === undefined ? undefined : await derive("CALLER_KEY_PREVIOUS", CALLER_KEY_PREVIOUS);
  return { ...(current && { current }), ...(previous && { previous }) };
}

const message = ({ objectId, name, token, expiresAt }: CallbackClaim): Uint8Array =>
  new TextEncoder().encode(`callback\n${objectId}\n${name}\n${token}\n${expiresAt}`);

const base64url = (bytes: ArrayBuffer): string =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replace(/=+$/, "");

function fromBase64url(text: string): Uint8Array {
  const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The signature of `claim` under `key`, as it goes into the URL. */
export async function signCallback(key: CryptoKey, claim: CallbackClaim): Promise<string> {
  return base64url(await crypto.subtle.sign("HMAC", key, message(claim)));
}

/** Whether `signature` is `claim`'s under one of `keys` (compared in constant time by WebCrypto). */
export async function verifyCallback(keys: CallbackKeys, claim: CallbackClaim, signature: string): Promise<boolean> {
  if (!SIGNATURE.test(signature)) return false;
  const bytes = fromBase64url(signature);
  for (const key of [keys.current, keys.previous]) {
    if (key && (await crypto.subtle.verify("HMAC", key, bytes, message(claim)))) return true;
  }
  return false;
}
