/**
 * The journal of a step's attempts (a step given options: src/jobs/policy-step.ts): a row when an
 * attempt starts and one when it ends, each written once, so a replayed run knows how many attempts
 * were made, when the next may start and whether the last was lost mid-way. Folded here into what
 * the task document shows of each step, bounded in size. Pure.
 */
import * as z from "zod";
import { clipMiddle } from "./clip";

/** The row written as attempt `n` of `step` starts. */
export const attemptStartKey = (step: string, n: number): string => `${step}\u0000${n}`;
/** The row written as attempt `n` of `step` ends. */
export const attemptEndKey = (step: string, n: number): string => `${step}\u0000${n}\u0000end`;

export const AttemptStartSchema = z.object({ startedAt: z.number() });
export type AttemptStart = z.infer<typeof AttemptStartSchema>;

export const AttemptEndSchema = z.object({
  /** How long the attempt ran (0 for one found lost). */
  ms: z.number(),
  /** Why it failed, in words; absent when it succeeded. */
  error: z.string().optional(),
  /** When the next attempt may start (ms since the epoch): set when the step retries on its own. */
  retryAt: z.number().optional(),
  /** The attempt's run stopped before it ended (a crash, a deploy): found by the next run. */
  lost: z.literal(true).optional(),
  /** The step gave up here: its attempts ran out, or its error was one no retry fixes. A replay gives up alike. */
  final: z.enum(["exhausted", "permanent"]).optional(),
});
export type AttemptEnd = z.infer<typeof AttemptEndSchema>;

/** Errors are kept in the journal at most this long. */
export const MAX_ATTEMPT_ERROR_CHARS = 1000;

/** A step as the task document lists it (`steps`). */
export interface StepAttemptsView {
  name: string;
  /** "running": an attempt started and has not ended; "retrying": it waits for `retryAt`. */
  state: "running" | "retrying" | "succeeded" | "failed";
  attempts: number;
  /** The durations of its last attempts (at most 5), oldest first; 0 for a lost one. */
  durationsMs: number[];
  lastError?: string;
  retryAt?: string;
}

/** How much of the journal the task document shows. */
export const ATTEMPT_VIEW_LIMITS = { steps: 20, durations: 5, errorChars: 300 } as const;

/**
 * The steps in `rows` (the journal's rows, in the order they were written), the latest `steps` of
 * them, each with its attempts summed up.
 */
export function foldAttempts(
  rows: Iterable<{ key: string; value: unknown }>,
  limits: { steps: number; durations: number; errorChars: number } = ATTEMPT_VIEW_LIMITS,
): StepAttemptsView[] {
  const byName = new Map<string, StepAttemptsView>();
  for (const { key, value } of rows) {
    const [name = "", n = "", end] = key.split("\u0000");
    const attempt = Number(n);
    const parsed = end === undefined ? undefined : AttemptEndSchema.safeParse(value);
    if (!Number.isSafeInteger(attempt) || parsed?.success === false) continue;
    // Latest written last: a step moves to the end of the list each time it is touched.
    const view = byName.get(name) ?? { name, state: "running", attempts: 0, durationsMs: [] };
    byName.delete(name);
    byName.set(name, view);
    if (parsed === undefined) {
      view.attempts = Math.max(view.attempts, attempt);
      view.state = "running";
      delete view.retryAt;
      continue;
    }
    const { ms, error, retryAt } = parsed.data;
    view.durationsMs = [...view.durationsMs, ms].slice(-limits.durations);
    view.state = error === undefined ? "succeeded" : retryAt !== undefined ? "retrying" : "failed";
    if (error !== undefined) view.lastError = clipMiddle(error, limits.errorChars);
    if (retryAt !== undefined) view.retryAt = new Date(retryAt).toISOString();
  }
  return [...byName.values()].slice(-limits.steps);
}
