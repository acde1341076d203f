/**
 * A step given options (`job.step(name, { retries, timeout }, fn)`): each attempt journaled in the
 * task (core model/step-attempts.ts) as it starts and ends, so a replayed run knows how many were
 * made, when the next may start, and that one was lost mid-way; a timeout per attempt; retries
 * waited for durably. Without `retries`, a failure goes up as thrown and the job-wide retries apply.
 */
import {
  AttemptEndSchema,
  AttemptStartSchema,
  attemptEndKey,
  attemptStartKey,
  clipMiddle,
  MAX_ATTEMPT_ERROR_CHARS,
  type AttemptEnd,
  type JobHost,
} from "../core";
import { PermanentError, StepFailedError, type StepAttempt } from "./context";
import { errorMessage, isPermanent } from "./errors";
import { retryDelayMs, type StepPolicy } from "./step-policy";

/** Where the last attempts of a step stand, read from the journal. */
interface History {
  /** Attempts started so far. */
  started: number;
  /** How the last one ended; undefined if it never did (its run was lost) or none started. */
  lastEnd?: AttemptEnd;
}

function readHistory(host: JobHost, name: string): History {
  let started = 0;
  while (AttemptStartSchema.safeParse(host.loadAttempt(attemptStartKey(name, started + 1))?.value).success) started++;
  if (started === 0) return { started };
  const end = AttemptEndSchema.safeParse(host.loadAttempt(attemptEndKey(name, started))?.value);
  return end.success ? { started, lastEnd: end.data } : { started };
}

export interface PolicyStepDeps {
  host: JobHost;
  name: string;
  policy: StepPolicy;
  idempotencyKey: string;
  /** An attempt starts: the names of what its body does are counted afresh (durable-names.ts). */
  beginAttempt(): void;
  /** Waits until `at`: a timer, or (long, or past the run's slice) a yield the task wakes from. */
  waitUntil(at: number, reason: string): Promise<void>;
}

/** Runs attempts of the step until one succeeds (its value returned) or the policy gives up (thrown). */
export async function runPolicyStep<T>(deps: PolicyStepDeps, fn: (attempt: StepAttempt) => T | Promise<T>): Promise<T> {
  const { host, name, policy } = deps;
  let history = readHistory(host, name);
  let interrupted = false;
  if (history.started > 0 && history.lastEnd === undefined) {
    // Its run stopped mid-attempt: the attempt counts, and the next one is told.
    const lost: AttemptEnd = {
      ms: 0,
      error: "its run stopped before the attempt ended (a crash or a deploy)",
      lost: true,
    };
    host.saveAttempt(attemptEndKey(name, history.started), lost);
    host.log("warning", `Step "${name}" attempt ${history.started} was interrupted: its run stopped before it ended.`);
    history = { started: history.started, lastEnd: lost };
    interrupted = true;
  } else if (history.lastEnd !== undefined && history.lastEnd.error === undefined) {
    // It succeeded, and its run stopped before the result was stored: what it did outside is done.
    host.log(
      "warning",
      `Step "${name}" attempt ${history.started} ended, but its run stopped before its result was stored.`,
    );
    interrupted = true;
  }
  for (;;) {
    const last = history.lastEnd;
    // A replay meets the step as the run that gave up on it did: it throws the same words again.
    if (last?.error !== undefined && last.final === "permanent") throw new PermanentError(last.error);
    if (last?.error !== undefined && policy.limit !== undefined && history.started >= policy.limit) {
      throw new StepFailedError(name, history.started, last.error);
    }
    if (last?.retryAt !== undefined) {
      await deps.waitUntil(last.retryAt, `retrying step "${name}" (attempt ${history.started + 1} of ${policy.limit})`);
    }
    const attempt = history.started + 1;
    const startedAt = Date.now();
    host.saveAttempt(attemptStartKey(name, attempt), { startedAt });
    deps.beginAttempt();
    try {
      const value = await runAttempt(deps, fn, { attempt, interrupted });
      host.saveAttempt(attemptEndKey(name, attempt), { ms: Date.now() - startedAt } satisfies AttemptEnd);
      return value;
    } catch (error) {
      if (host.signal.aborted) throw error;
      const message = clipMiddle(errorMessage(error), MAX_ATTEMPT_ERROR_CHARS);
      const permanent = isPermanent(error);
      const retries = policy.limit !== undefined && attempt < policy.limit && !permanent;
      const exhausted = policy.limit !== undefined && attempt >= policy.limit;
      const end: AttemptEnd = {
        ms: Date.now() - startedAt,
        error: message,
        ...(retries && { retryAt: Date.now() + retryDelayMs(policy, attempt) }),
        ...(permanent ? { final: "permanent" } : exhausted ? { final: "exhausted" } : {}),
      };
      host.saveAttempt(attemptEndKey(name, attempt), end);
      host.log("warning", `Step "${name}" attempt ${attempt} failed: ${message}`);
      // No retries of its own, or an error a retry cannot fix: it goes up as it was thrown.
      if (policy.limit === undefined || permanent) throw error;
      history = { started: attempt, lastEnd: end };
      interrupted = false;
    }
  }
}

/** One attempt: `fn` with a signal that aborts at the attempt's timeout or the task's cancel. */
async function runAttempt<T>(
  { host, policy, idempotencyKey }: PolicyStepDeps,
  fn: (attempt: StepAttempt) => T | Promise<T>,
  { attempt, interrupted }: { attempt: number; interrupted: boolean },
): Promise<T> {
  const controller = new AbortController();
  const onCancel = () => controller.abort(host.signal.reason);
  host.signal.addEventListener("abort", onCancel, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  // The attempt fails at its timeout even if `fn` ignores the signal: what it returns later is dropped.
  const { timeoutMs } = policy;
  const timedOut = new Promise<never>((_, reject) => {
    if (timeoutMs === undefined) return;
    timer = setTimeout(() => {
      const error = new Error(`it ran past its timeout of ${timeoutMs / 1000} s`);
      controller.abort(error);
      reject(error);
    }, timeoutMs);
  });
  timedOut.catch(() => undefined); // raced below; a rejection after the attempt ended is not unhandled
  try {
    const running = Promise.resolve().then(() =>
      fn({ attempt, idempotencyKey, signal: controller.signal, interrupted }),
    );
    return await Promise.race([running, timedOut]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    host.signal.removeEventListener("abort", onCancel);
  }
}
