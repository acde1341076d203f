/**
 * The options of `job.step(name, options, fn)`, as a tool writes them (types only: step-policy.ts
 * reads them). The names are Cloudflare Workflows' (`step.do`'s `retries: { limit, delay, backoff }`, `timeout`).
 */

/** How the wait between attempts grows: the same, `delay · n`, or `delay · 2^(n−1)` after the n-th failure. */
export type Backoff = "constant" | "linear" | "exponential";
/** A number of seconds (as `job.sleep` takes) or words such as "30 seconds", "5 minutes", "1 hour". */
export type Duration = number | `${number} ${DurationUnit}`;
type DurationUnit =
  | "millisecond"
  | "second"
  | "minute"
  | "hour"
  | "day"
  | `${"millisecond" | "second" | "minute" | "hour" | "day"}s`;

export interface StepRetries {
  /** Attempts in all, the first included: `limit: 1` runs once and never retries. 1 to 100. */
  limit: number;
  /** The wait after the first failure (default 1 second). */
  delay?: Duration;
  /** Default "exponential". */
  backoff?: Backoff;
}

export interface StepOptions {
  /** Without it, a thrown error is retried job-wide, as for `job.step(name, fn)` (JOB_MAX_ATTEMPTS). */
  retries?: StepRetries;
  /** How long one attempt may run: past it, its `signal` aborts and the attempt fails. */
  timeout?: Duration;
}

/** What a step's function is given for each attempt (`job.step(name, fn)` or `job.step(name, options, fn)`). */
export interface StepAttempt {
  /** 1 for the first attempt of this step in this task, 2 for its first retry, and so on. */
  readonly attempt: number;
  /**
   * The same for every attempt and replay of this step in this task (and no other step's): pass
   * it to payment, email or deploy APIs so a repeat is not done twice.
   */
  readonly idempotencyKey: string;
  /** Aborts when the attempt's timeout passes, or the task is cancelled. Pass it to fetch(). */
  readonly signal: AbortSignal;
  /**
   * The previous attempt started and its run stopped before it ended (a crash, a deploy): what it
   * did outside may be done. Check (with `idempotencyKey`) before doing it again.
   */
  readonly interrupted: boolean;
}
