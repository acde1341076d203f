/**
 * What a task keeps of its caller, at rest: AES-GCM under the Worker's CALLER_KEY (caller-keys.ts),
 * bound to the task's principal (the additional data), so a sealed value copied to another
 * principal's task does not open. Without a key it is kept as given, which only local dev should
 * do (docs/writing-tools.md says so, and the first such seal logs it once per isolate).
 */
import * as z from "zod";
import type { JsonObject } from "../json";
import { callerKeys, type CallerKey } from "./caller-keys";

const SealedSchema = z.union([
  z.object({ v: z.literal(1), key: z.string(), iv: z.string(), data: z.string() }),
  z.object({ v: z.literal(1), plain: z.record(z.string(), z.unknown()) }),
]);

const base64 = (bytes: Uint8Array): string => btoa(String.fromCharCode(...bytes));
const bytesOf = (text: string): Uint8Array => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const additionalData = (principal: string) => new TextEncoder().encode(`mcp-task-worker caller\u0000${principal}`);

let warned = false;

/** `caller` as a task stores it, for `principal`'s task. Throws, in words, when CALLER_KEY is malformed. */
export async function sealCaller(caller: JsonObject, principal: string, env: unknown): Promise<JsonObject> {
  const keys = await callerKeys(env);
  if (!keys.ok) throw new Error(`The caller's context cannot be stored: ${keys.message}`);
  if (keys.current === undefined) {
    if (!warned)
      console.warn("mcp-task-worker: CALLER_KEY is not set; what tasks keep of their callers is stored unencrypted.");
    warned = true;
    return { v: 1, plain: caller };
  }
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const plain = new TextEncoder().encode(JSON.stringify(caller));
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: additionalData(principal) },
    keys.current.key,
    plain,
  );
  return { v: 1, key: keys.current.id, iv: base64(iv), data: base64(new Uint8Array(data)) };
}

export type OpenedCaller = { ok: true; caller: JsonObject } | { ok: false; reason: string };

/** The caller a task stored, opened for a run of `principal`'s task; a reason in words when it cannot be. */
export async function openCaller(stored: unknown, principal: string, env: unknown): Promise<OpenedCaller> {
  const parsed = SealedSchema.safeParse(stored);
  if (!parsed.success) return { ok: false, reason: "what it kept of its caller is not in a form this version reads" };
  const sealed = parsed.data;
  if ("plain" in sealed) return { ok: true, caller: sealed.plain };
  const keys = await callerKeys(env);
  if (!keys.ok) {
    // The operator's to fix (the settings' 503 says so too): the tool's words reach only the caller.
    console.error(`mcp-task-worker: a task's caller cannot be opened: ${keys.message}`);
    return { ok: false, reason: keys.message };
  }
  const key: CallerKey | undefined = [keys.current, keys.previous].find((k) => k?.id === sealed.key);
  if (key === undefined)
    return {
      ok: false,
      reason:
        "the key that sealed its caller's context is no longer set (CALLER_KEY was rotated without keeping the old one in CALLER_KEY_PREVIOUS)",
    };
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytesOf(sealed.iv), additionalData: additionalData(principal) },
      key.key,
      bytesOf(sealed.data),
    );
    const value = z.record(z.string(), z.unknown()).safeParse(JSON.parse(new TextDecoder().decode(plain)));
    return value.success
      ? { ok: true, caller: value.data }
      : { ok: false, reason: "its caller's context is not an object" };
  } catch {
    return { ok: false, reason: "its caller's context does not open with the key that should have sealed it" };
  }
}
