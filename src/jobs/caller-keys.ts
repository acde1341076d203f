/**
 * The keys that seal what a task keeps of its caller (caller-seal.ts), from the Worker's secrets:
 * CALLER_KEY seals and opens; CALLER_KEY_PREVIOUS only opens, so a rotation leaves the tasks
 * sealed before it readable for their life (docs/writing-tools.md, "The caller"). Each is 32 random
 * bytes in base64 (`openssl rand -base64 32`), named in a sealed value by a short hash of itself.
 */
import * as z from "zod";

const KeysSchema = z.object({
  CALLER_KEY: z.string().optional(),
  CALLER_KEY_PREVIOUS: z.string().optional(),
});

export interface CallerKey {
  /** The first 8 bytes of the key's SHA-256, in hex: which key sealed a value. */
  id: string;
  key: CryptoKey;
}

export type CallerKeys = { ok: true; current?: CallerKey; previous?: CallerKey } | { ok: false; message: string };

const hex = (bytes: ArrayBuffer): string =>
  [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

/** What the operator does about a malformed key (the same words as the settings' 503, config.ts). */
const fix = (name: string) =>
  `put a new one, 32 random bytes in base64, with \`openssl rand -base64 32 | npx wrangler secret put ${name}\``;

async function importKey(name: string, text: string): Promise<CallerKey | string> {
  let raw: Uint8Array;
  try {
    raw = Uint8Array.from(atob(text.trim()), (c) => c.charCodeAt(0));
  } catch {
    return `the Worker's secret ${name} is not base64: ${fix(name)}`;
  }
  if (raw.byteLength !== 32) return `the Worker's secret ${name} holds ${raw.byteLength} bytes, not 32: ${fix(name)}`;
  const id = hex(await crypto.subtle.digest("SHA-256", raw)).slice(0, 16);
  const key = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
  return { id, key };
}

/** The Worker's caller keys, read from `env` (a secret's text is a trust edge: parsed, and each key checked). */
export async function callerKeys(env: unknown): Promise<CallerKeys> {
  const parsed = KeysSchema.safeParse(env);
  if (!parsed.success) return { ok: false, message: "CALLER_KEY and CALLER_KEY_PREVIOUS must be secrets (text)." };
  const { CALLER_KEY, CALLER_KEY_PREVIOUS } = parsed.data;
  const current = CALLER_KEY === undefined ? undefined : await importKey("CALLER_KEY", CALLER_KEY);
  const previous =
    CALLER_KEY_PREVIOUS === undefined ? undefined : await importKey("CALLER_KEY_PREVIOUS", CALLER_KEY_PREVIOUS);
  if (typeof current === "string") return { ok: false, message: current };
  if (typeof previous === "string") return { ok: false, message: previous };
  return { ok: true, ...(current && { current }), ...(previous && { previous }) };
}
