/**
 * The `requestState` of a multi round-trip `tools/call` (basic/patterns/mrtr.mdx): opaque to the
 * client, `v1.<payload>.<mac>` in base64url. The payload names the task the call runs as, the
 * principal, the tool, a digest of its arguments and an expiry; the MAC is HMAC-SHA-256 under a
 * random key kept with that task (adapter state), so a state is valid only for the task that
 * issued it, reached through the caller's own gateway: forged, altered, expired, replayed on
 * another tool or arguments, or presented by another principal, it is exactly an unknown one.
 */
import * as z from "zod";
import { canonicalJson as canonical, sha256Base64url as digest, isTaskId, type TaskGateway } from "../core";

/** The adapter-state kind (key "key") holding a task's requestState key. */
export const REQUEST_STATE_KEY_STATE = "mcp-2026-07-28/request-state";
const KeySchema = z.object({ key: z.string().min(40) });

/** How long an issued requestState stays valid (the client retries after asking its user). */
export const REQUEST_STATE_TTL_MS = 3600_000;

// `o`: the call that was asked created the task (a retry may then cancel it on leaving: protocol/call-policy.ts).
const PayloadSchema = z.object({
  t: z.string(),
  p: z.string(),
  n: z.string(),
  d: z.string(),
  e: z.number(),
  o: z.literal(1).optional(),
});
type Payload = z.infer<typeof PayloadSchema>;

const encoder = new TextEncoder();
const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
function fromBase64url(text: string): Uint8Array | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) return undefined;
  try {
    return Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  } catch {
    return undefined;
  }
}

const hmacKey = (raw: Uint8Array, usage: "sign" | "verify") =>
  crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, [usage]);

/** What sealing and opening need of the caller's gateway: the task's state, and who is asking. */
export type StateGateway = Pick<TaskGateway, "principal" | "lookupState" | "attachState">;

/** The call a requestState belongs to. */
export interface StateCall {
  taskId: string;
  tool: string;
  args: unknown;
  /** The call created its task (not found by its idempotency key). */
  owned?: boolean;
}

/** Seals a requestState for `call`, making the task's key on first use. */
export async function sealRequestState(
  gateway: StateGateway,
  call: StateCall,
  now = Date.now(),
): Promise<string | undefined> {
  const stored = KeySchema.safeParse(await gateway.lookupState(call.taskId, REQUEST_STATE_KEY_STATE, "key"));
  let key = stored.success ? stored.data.key : undefined;
  if (key === undefined) {
    key = base64url(crypto.getRandomValues(new Uint8Array(32)));
    if ((await gateway.attachState(call.taskId, REQUEST_STATE_KEY_STATE, { key }, "key")) === undefined)
      return undefined;
  }
  const payload: Payload = {
    t: call.taskId,
    p: await digest(gateway.principal),
    n: call.tool,
    d: await digest(canonical(call.args ?? {})),
    e: now + REQUEST_STATE_TTL_MS,
  };
  if (call.owned === true) payload.o = 1;
  const body = base64url(encoder.encode(JSON.stringify(payload)));
  const raw = fromBase64url(key);
  if (!raw) return undefined;
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", await hmacKey(raw, "sign"), encoder.encode(body)));
  return `v1.${body}.${base64url(mac)}`;
}

/** The task a requestState names, if it is intact, unexpired, the caller's, and for this very call; else undefined. */
export async function openRequestState(
  gateway: StateGateway,
  state: string,
  call: Omit<StateCall, "taskId" | "owned">,
  now = Date.now(),
): Promise<string | undefined> {
  return (await openRequestStateCall(gateway, state, call, now))?.taskId;
}

/** openRequestState, with whether the call that was asked created its task. */
export async function openRequestStateCall(
  gateway: StateGateway,
  state: string,
  call: Omit<StateCall, "taskId" | "owned">,
  now = Date.now(),
): Promise<{ taskId: string; owned: boolean } | undefined> {
  const [version, body, mac, ...rest] = state.split(".");
  if (version !== "v1" || body === undefined || mac === undefined || rest.length > 0) return undefined;
  const bodyBytes = fromBase64url(body);
  const macBytes = fromBase64url(mac);
  if (!bodyBytes || !macBytes) return undefined;
  let payload: Payload;
  try {
    const parsed = PayloadSchema.safeParse(JSON.parse(new TextDecoder().decode(bodyBytes)));
    if (!parsed.success) return undefined;
    payload = parsed.data;
  } catch {
    return undefined;
  }
  if (!isTaskId(payload.t) || payload.e <= now || payload.n !== call.tool) return undefined;
  if (payload.p !== (await digest(gateway.principal)) || payload.d !== (await digest(canonical(call.args ?? {}))))
    return undefined;
  // The key lives with the task, reached through the caller's gateway: another principal's lookup finds nothing.
  const stored = KeySchema.safeParse(await gateway.lookupState(payload.t, REQUEST_STATE_KEY_STATE, "key"));
  const raw = stored.success ? fromBase64url(stored.data.key) : undefined;
  if (!raw) return undefined;
  const valid = await crypto.subtle.verify("HMAC", await hmacKey(raw, "verify"), macBytes, encoder.encode(body));
  return valid ? { taskId: payload.t, owned: payload.o === 1 } : undefined;
}
