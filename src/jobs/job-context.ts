/**
 * Builds the JobContext a tool receives over a JobHost: memoized steps, durable sleeps, fan-outs
 * and publishes, each named so a replayed run reaches it again in any interleaving (durable-names.ts).
 */
import {
  abortableDelay,
  JobInput,
  JobYield,
  PermanentError,
  type InputAnswer,
  type JobContext,
  type StepAttempt,
} from "./context";
import { questionProblem, type JobHost } from "../core";
import { callbackFunction } from "./callback";
import { callbackKeys } from "./callback-signature";
import { DurableNames, hash64 } from "./durable-names";
import { fanOutFunction } from "./fan-out";
import { LegacyNames } from "./legacy-names";
import { runPolicyStep } from "./policy-step";
import type { StepOptions } from "./step-options";
import { stepPolicy } from "./step-policy";
import { publishFunction } from "./publish";
import { emitFunction, type JobEmitter } from "./emit";
import type { StepMap } from "./steps";
import { storedJsonText } from "./stored-json";
import type { YieldState } from "./yield-state";
import { callerOf, envOf, type RunIdentity } from "./run-identity";
import type { JournalWatch } from "./journal-watch";

export { MAX_STEP_BYTES } from "./stored-json";

/** Sleeps this long or longer always yield: the run ends and nothing is held while waiting. */
export const YIELD_THRESHOLD_MS = 30_000;

/** What a run knows of its tool's versions and journal (runner.ts). */
export interface RunJournal {
  /** `job.version`: the version of the tool the task started on. */
  version: number;
  watch?: JournalWatch;
}

export function createJobContext(
  host: JobHost,
  yieldState: YieldState,
  steps?: StepMap,
  emitter?: JobEmitter,
  identity?: RunIdentity,
  journal: RunJournal = { version: 1 },
): JobContext {
  const names = new DurableNames();
  const watch = journal.watch;
  // Only a task recorded by release 0.1 may hold 0.1's names (legacy-names.ts); they are looked up after ours.
  const legacy = host.legacyNames === true ? new LegacyNames() : undefined;

  // Inline calls have no task id: their keys are this call's own.
  const keyBase = host.taskId === "" ? crypto.randomUUID().replaceAll("-", "") : host.taskId;
  /** A step's idempotency key: its task and its name, so every attempt and replay of it shares one. */
  const stepKey = (name: string): string => `${keyBase}-${hash64(`step\u0000${name}`)}`;

  const throwIfAborted = (): void => {
    if (host.signal.aborted) throw host.signal.reason;
  };

  /** `long`: a sleep just asked for 30 s or more, which yields even if a millisecond passed since it was computed. */
  const waitUntil = async (wakeAt: number, reason?: string, long = false): Promise<void> => {
    throwIfAborted();
    const now = Date.now();
    if (wakeAt <= now) return;
    if (long || wakeAt - now >= YIELD_THRESHOLD_MS || wakeAt > host.sliceDeadline) {
      yieldState.yield = new JobYield(wakeAt, reason);
      throw yieldState.yield;
    }
    // The job is about to wait: what it reported so far should not wait with it.
    host.flush?.();
    await abortableDelay(wakeAt - now, host.signal);
  };

  return {
    taskId: host.taskId,
    version: journal.version,
    // Getters: a run that never reads them (a unit test's host without an env) never meets their refusal.
    get env() {
      return envOf(identity);
    },
    get caller() {
      return callerOf(identity);
    },
    attempt: host.attempt,
    signal: host.signal,
    async progress(done, total, message) {
      throwIfAborted();
      host.progress(done, total, message);
    },
    // Named by where it runs and what it publishes: the host records each name once (core/object/partial-pieces.ts).
    publish: publishFunction(
      host,
      (blocks) => ({
        key: names.next("publish", "job.publish", JSON.stringify(blocks)),
        legacy: legacy?.next("publish"),
      }),
      throwIfAborted,
      watch && ((key, found) => watch.saw("publish", key, found)),
    ),
    emit: emitFunction(host, names, emitter, throwIfAborted),
    async log(message, level = "info") {
      // Never throws, so logging in a tool's `finally` cannot mask the real outcome.
      host.log(level, message);
    },
    async step<T>(
      name: string,
      optionsOrFn: StepOptions | ((attempt: StepAttempt) => T | Promise<T>),
      maybeFn?: (attempt: StepAttempt) => T | Promise<T>,
    ): Promise<T> {
      if (typeof name !== "string" || name === "") throw new PermanentError("job.step needs a non-empty name.");
      const fn = typeof optionsOrFn === "function" ? optionsOrFn : maybeFn;
      if (typeof fn !== "function") throw new PermanentError(`job.step("${name}") needs a function to run.`);
      const policy = typeof optionsOrFn === "function" ? undefined : stepPolicy(name, optionsOrFn);
      const stored = host.loadStep(name);
      watch?.saw("step", name, stored !== undefined, names.scopeName());
      if (stored) {
        legacy?.moveTo(`after ${name}`);
        return stored.value as T;
      }
      throwIfAborted();
      legacy?.moveTo(`in ${name}`);
      const what = `job.step("${name}")`;
      const idempotencyKey = stepKey(name);
      const value: unknown = await names.inStep(
        name,
        async () =>
          JSON.parse(
            storedJsonText(
              what,
              policy
                ? await runPolicyStep(
                    { host, name, policy, idempotencyKey, waitUntil, beginAttempt: () => names.restartScope(name) },
                    fn,
                  )
                : // A step without options keeps no journal: one attempt per run, retried job-wide.
                  await fn({ attempt: 1, idempotencyKey, signal: host.signal, interrupted: false }),
            ),
          ),
        policy !== undefined,
      );
      throwIfAborted();
      host.saveStep(name, value);
      legacy?.moveTo(`after ${name}`);
      // The stored JSON, not the live value: a replay must see exactly what the first run saw.
      return value as T;
    },
    async sleep(seconds, reason) {
      if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) {
        throw new PermanentError(`job.sleep needs a non-negative number of seconds, got ${String(seconds)}.`);
      }
      const key = names.next("sleep", "job.sleep", JSON.stringify([seconds, reason ?? null]));
      const legacyKey = legacy?.next("sleep");
      const stored = host.loadSleep(key) ?? (legacyKey === undefined ? undefined : host.loadSleep(legacyKey));
      watch?.saw("sleep", key, stored !== undefined);
      if (stored !== undefined) return waitUntil(stored, reason);
      const wakeAt = Date.now() + seconds * 1000;
      host.saveSleep(key, wakeAt);
      await waitUntil(wakeAt, reason, seconds * 1000 >= YIELD_THRESHOLD_MS);
    },
    async sleepUntil(time, reason) {
      names.refuseWaitInJournaledStep("job.sleepUntil");
      const at = typeof time === "number" ? time : time.getTime();
      if (!Number.isFinite(at)) throw new PermanentError(`job.sleepUntil needs a valid time, got ${String(time)}.`);
      await waitUntil(at, reason);
    },
    async elicit(key, question) {
      names.refuseWaitInJournaledStep("job.elicit");
      const problem = questionProblem(key, question ?? {});
      if (problem !== undefined) throw new PermanentError(`job.elicit: ${problem}.`);
      const stored = host.loadAnswer(key);
      if (stored) {
        // A question still waiting for its answer is no new work: only an answer used is told.
        watch?.saw("answer", key, true, names.scopeName());
        legacy?.moveTo(`after input ${key}`);
        return stored.value as InputAnswer;
      }
      throwIfAborted();
      // The run ends here; the task waits with nothing running and the answer wakes it.
      (yieldState.questions ??= []).push({ key, message: question.message, requestedSchema: question.requestedSchema });
      throw new JobInput();
    },
    // Named by its author, like a step: a replay opens the same callback and gets its URL back.
    callback: callbackFunction({
      host,
      names,
      waitUntil: (at, reason, long) => waitUntil(at, reason, long),
      ...(watch && { watch }),
      signingKey: async () => (await callbackKeys(identity?.env)).current,
    }),
    // Named like a publish, by where it runs and what it fans out.
    fanOut: fanOutFunction({
      host,
      yieldState,
      steps,
      nextKey: (step, inputs) => ({
        key: `fanout:${names.next("fanout", `job.fanOut(${step})`, JSON.stringify([step, inputs]))}`,
        legacy: legacy?.next("fanout"),
      }),
      throwIfAborted,
    }),
  };
}
