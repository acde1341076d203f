/**
 * Who and where a run is for: `job.env` (the Worker's env) and `job.caller` (what the adopter's auth
 * knew of the task's caller, opened from its sealed copy and, when the adopter asked for it, resolved
 * again by its `resolveCaller`). Worked out before each run, so a crash, a sleep or a question later
 * the job gets the same caller; what cannot be opened or resolved becomes words the tool meets when
 * it reads `job.caller` (a PermanentError, which fails the task with them unless it catches it).
 */
import type { JobHost } from "../core";
import type { JsonObject } from "../json";
import { openCaller } from "./caller-seal";
import { PermanentError } from "./context";
import { errorMessage } from "./errors";

/**
 * The adopter's way to store a reference and resolve it at run time (an OAuth grant's id → a fresh
 * access token): given what the task stored and the Worker's env, answers the caller its job gets.
 * A throw (a revoked grant) is what the tool learns, in the thrown words.
 */
export type ResolveCaller = (stored: JsonObject, env: Cloudflare.Env) => unknown;

export interface RunIdentity {
  env?: Cloudflare.Env;
  /** `{ ok: false }`: the words `job.caller` throws with. */
  caller: { ok: true; value: unknown } | { ok: false; reason: string };
}

const NO_CALLER: RunIdentity["caller"] = { ok: true, value: undefined };

export async function runIdentity(host: JobHost, env?: Cloudflare.Env, resolve?: ResolveCaller): Promise<RunIdentity> {
  const stored = host.loadCaller?.();
  if (stored === undefined) return { ...(env && { env }), caller: NO_CALLER };
  const opened = await openCaller(stored, host.principal ?? "", env);
  if (!opened.ok) return { ...(env && { env }), caller: { ok: false, reason: opened.reason } };
  if (resolve === undefined || env === undefined)
    return { ...(env && { env }), caller: { ok: true, value: opened.caller } };
  try {
    return { env, caller: { ok: true, value: await resolve(opened.caller, env) } };
  } catch (error) {
    return { env, caller: { ok: false, reason: errorMessage(error) } };
  }
}

/** `job.caller`'s getter: the caller, or the words it could not be had in. */
export function callerOf(identity: RunIdentity | undefined): unknown {
  const caller = identity?.caller ?? NO_CALLER;
  if (caller.ok) return caller.value;
  throw new PermanentError(
    `This task can no longer act for the caller who started it: ${caller.reason}. Start it again.`,
  );
}

/** `job.env`'s getter: the Worker's env, which every run of a task and every inline call has. */
export function envOf(identity: RunIdentity | undefined): Cloudflare.Env {
  if (identity?.env === undefined)
    throw new PermanentError("job.env is not available here: this run was started without the Worker's env.");
  return identity.env;
}
