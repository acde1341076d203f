/**
 * A job's callbacks (`job.callback(name, { timeout })`): a single-use URL an outside system POSTs
 * its JSON to when its work is done. Stored in the task: the callback (its secret token and when it
 * expires) once, and the body once it arrived, so a second POST finds it used. Pure.
 */
import * as z from "zod";

/**
 * The callback as the job opened it. `token`: 256 random bits as hex, the URL's capability; `signed`:
 * its URL was signed (src/jobs/callback-signature.ts), so only that URL completes it. Absent on
 * rows opened unsigned (without a key, or by the release before signatures).
 */
export const CallbackRowSchema = z.object({ token: z.string(), expiresAt: z.number(), signed: z.boolean().optional() });
export type CallbackRow = z.infer<typeof CallbackRowSchema>;

/** What arrived at the callback's URL, stored once. */
export const CallbackBodySchema = z.object({ body: z.unknown(), at: z.number() });

/** The most bytes a callback's body may have. */
export const MAX_CALLBACK_BODY_BYTES = 64 * 1024;

/** What became of a POST to a callback's URL. */
export type CallbackOutcome = "received" | "unknown" | "expired" | "used";

/** A fresh token: 256 random bits, as hex. */
export function newCallbackToken(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Whether `given` is `expected`, in time that does not depend on where they differ. */
export function sameToken(given: string, expected: string): boolean {
  if (given.length !== expected.length) return false;
  let differ = 0;
  for (let i = 0; i < given.length; i++) differ |= given.charCodeAt(i) ^ expected.charCodeAt(i);
  return differ === 0;
}

/**
 * What a POST shows it may complete a callback with: the URL's token (`signed`: the Worker checked
 * the URL's signature and expiry), or being the task's owner (authenticated).
 */
export type CallbackProof = { token: string; signed: boolean } | { owner: true };

/**
 * Whether a POST with `proof` to the callback stored as `row` may deliver its body now: an unknown
 * callback and a wrong token are alike (nothing tells a guesser which part was wrong).
 */
export function judgeCallback(
  row: unknown,
  proof: CallbackProof,
  used: boolean,
  now: number,
): Exclude<CallbackOutcome, "received"> | undefined {
  const parsed = CallbackRowSchema.safeParse(row);
  if (!parsed.success) return "unknown";
  if ("token" in proof && !sameToken(proof.token, parsed.data.token)) return "unknown";
  // A signed callback is completed only through its signed URL, whose checks the Worker made.
  if ("token" in proof && parsed.data.signed === true && !proof.signed) return "unknown";
  if (used) return "used";
  if (now >= parsed.data.expiresAt) return "expired";
  return undefined;
}

/** The path of a callback's URL: the task's object id, the callback's name, its token (a signed URL adds `/{expiresAt}/{signature}`). */
export const callbackPath = (objectId: string, name: string, token: string): string =>
  `/callbacks/${objectId}/${encodeURIComponent(name)}/${token}`;
