/**
 * A step's own policy (`job.step(name, { retries, timeout }, fn)`): the options checked at the call,
 * durations read from seconds or words ("30 seconds", "5 minutes"), and the wait before each retry.
 * The names are Cloudflare Workflows' (`step.do`'s `retries: { limit, delay, backoff }`, `timeout`).
 */
import * as z from "zod";
import { backoff as exponential } from "../core";
import { PermanentError } from "./context";
import type { Backoff } from "./step-options";

/** A step's options as the engine applies them, durations in milliseconds. */
export interface StepPolicy {
  /** undefined: the job-wide retries apply (the error goes up to the runner as it was thrown). */
  limit?: number;
  delayMs: number;
  backoff: Backoff;
  timeoutMs?: number;
}

/** No wait between attempts is longer: a step that needs more should sleep between steps. */
export const MAX_STEP_RETRY_DELAY_MS = 24 * 3_600_000;
/** Attempts a step may ask for: each leaves a row in the task's journal (step-journal.ts). */
export const MAX_STEP_ATTEMPTS = 100;

const UNIT_MS: Readonly<Record<string, number>> = {
  millisecond: 1,
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};
const WORDS = /^\s*(\d+(?:\.\d+)?)\s*(millisecond|second|minute|hour|day)s?\s*$/i;

/** A duration in milliseconds; `what` names the option in the error a bad one gets. */
export function durationMs(value: unknown, what: string): number {
  if (typeof value === "number" && Number.isFinite(value) && value >= 0) return value * 1000;
  const words = typeof value === "string" ? WORDS.exec(value) : null;
  const unit = words?.[2]?.toLowerCase();
  const ms = words && unit ? Number(words[1]) * (UNIT_MS[unit] ?? Number.NaN) : Number.NaN;
  if (Number.isFinite(ms)) return ms;
  throw new PermanentError(
    `${what} must be a number of seconds or words such as "30 seconds" or "5 minutes", got ${JSON.stringify(value) ?? String(value)}.`,
  );
}

const OptionsSchema = z.strictObject({
  retries: z
    .strictObject({
      limit: z.number().int().min(1).max(MAX_STEP_ATTEMPTS),
      delay: z.unknown().optional(),
      backoff: z.enum(["constant", "linear", "exponential"]).optional(),
    })
    .optional(),
  timeout: z.unknown().optional(),
});

/** The policy `options` ask for, or a PermanentError at the call saying what is wrong with them. */
export function stepPolicy(name: string, options: unknown): StepPolicy {
  // The journal's keys are the name, then NUL-separated numbers (core model/step-attempts.ts).
  if (name.includes("\u0000")) throw new PermanentError("job.step with options needs a name without NUL characters.");
  const parsed = OptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? ` at ${issue.path.join(".")}` : "";
    throw new PermanentError(
      `job.step("${name}") was given options it cannot use${where}: ${issue?.message ?? "invalid"}. It takes { retries?: { limit: 1..${MAX_STEP_ATTEMPTS}, delay?, backoff?: "constant" | "linear" | "exponential" }, timeout? }.`,
    );
  }
  const { retries, timeout } = parsed.data;
  const timeoutMs = timeout === undefined ? undefined : durationMs(timeout, `job.step("${name}")'s timeout`);
  if (timeoutMs !== undefined && timeoutMs <= 0) {
    throw new PermanentError(`job.step("${name}")'s timeout must be more than 0 seconds.`);
  }
  return {
    ...(retries && { limit: retries.limit }),
    delayMs: retries?.delay === undefined ? 1000 : durationMs(retries.delay, `job.step("${name}")'s retries.delay`),
    backoff: retries?.backoff ?? "exponential",
    ...(timeoutMs !== undefined && { timeoutMs }),
  };
}

/** The wait after the `failures`-th failed attempt, before the next one. */
export function retryDelayMs(policy: Pick<StepPolicy, "delayMs" | "backoff">, failures: number): number {
  const n = Math.max(1, failures);
  switch (policy.backoff) {
    case "constant":
      return Math.min(policy.delayMs, MAX_STEP_RETRY_DELAY_MS);
    case "linear":
      return Math.min(policy.delayMs * n, MAX_STEP_RETRY_DELAY_MS);
    case "exponential":
      return exponential(n, policy.delayMs, MAX_STEP_RETRY_DELAY_MS);
  }
}
