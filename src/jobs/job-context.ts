/**
 * Builds the JobContext a tool receives over a JobHost: memoized steps, durable sleeps
 * (remembered by position, so a replayed run does not wait again) and yields.
 */
import { abortableDelay, JobInput, JobYield, PermanentError, type InputAnswer, type JobContext } from "./context";
import { answerStepName, questionProblem, type JobHost } from "../core";
import { fanOutFunction } from "./fan-out";
import { publishFunction } from "./publish";
import type { StepMap } from "./steps";
import { storedJsonText } from "./stored-json";
import type { YieldState } from "./yield-state";

export { MAX_STEP_BYTES } from "./stored-json";

/** Sleeps this long or longer always yield: the run ends and nothing is held while waiting. */
export const YIELD_THRESHOLD_MS = 30_000;

export function createJobContext(host: JobHost, yieldState: YieldState, steps?: StepMap): JobContext {
  // A sleep is named by the step it follows (or runs inside) and its count since then.
  // Counting sleeps over the whole run would not do: a replayed step skips its body,
  // and with it any sleep inside, which would shift the numbers of every later sleep.
  let position = "start";
  let sleepsHere = 0;
  let fanOutsHere = 0;
  let publishesHere = 0;
  const moveTo = (next: string): void => {
    position = next;
    sleepsHere = 0;
    fanOutsHere = 0;
    publishesHere = 0;
  };

  const throwIfAborted = (): void => {
    if (host.signal.aborted) throw host.signal.reason;
  };

  const waitUntil = async (wakeAt: number, reason?: string): Promise<void> => {
    throwIfAborted();
    const now = Date.now();
    if (wakeAt <= now) return;
    if (wakeAt - now >= YIELD_THRESHOLD_MS || wakeAt > host.sliceDeadline) {
      yieldState.yield = new JobYield(wakeAt, reason);
      throw yieldState.yield;
    }
    // The job is about to wait: what it reported so far should not wait with it.
    host.flush?.();
    await abortableDelay(wakeAt - now, host.signal);
  };

  return {
    taskId: host.taskId,
    attempt: host.attempt,
    signal: host.signal,
    async progress(done, total, message) {
      throwIfAborted();
      host.progress(done, total, message);
    },
    // Named by position like a sleep: a replayed run's repeat is recorded once (core/object/partial-pieces.ts).
    publish: publishFunction(host, () => `${position}#${++publishesHere}`, throwIfAborted),
    async log(message, level = "info") {
      // Never throws, so logging in a tool's `finally` cannot mask the real outcome.
      host.log(level, message);
    },
    async step<T>(name: string, fn: () => T | Promise<T>): Promise<T> {
      const key = `step:${name}`;
      const stored = host.loadStep(key);
      if (stored) {
        moveTo(`after ${name}`);
        return stored.value as T;
      }
      throwIfAborted();
      moveTo(`in ${name}`);
      const value: unknown = JSON.parse(storedJsonText(`job.step("${name}")`, await fn()));
      throwIfAborted();
      host.saveStep(key, value);
      moveTo(`after ${name}`);
      // The stored JSON, not the live value: a replay must see exactly what the first run saw.
      return value as T;
    },
    async sleep(seconds, reason) {
      if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) {
        throw new PermanentError(`job.sleep needs a non-negative number of seconds, got ${String(seconds)}.`);
      }
      sleepsHere += 1;
      const key = `sleep:${position}#${sleepsHere}`;
      const stored = host.loadStep(key);
      let wakeAt: number;
      if (stored && typeof stored.value === "number") {
        wakeAt = stored.value;
      } else {
        wakeAt = Date.now() + seconds * 1000;
        host.saveStep(key, wakeAt);
      }
      await waitUntil(wakeAt, reason);
    },
    async sleepUntil(time, reason) {
      const at = typeof time === "number" ? time : time.getTime();
      if (!Number.isFinite(at)) throw new PermanentError(`job.sleepUntil needs a valid time, got ${String(time)}.`);
      await waitUntil(at, reason);
    },
    async elicit(key, question) {
      const problem = questionProblem(key, question ?? {});
      if (problem !== undefined) throw new PermanentError(`job.elicit: ${problem}.`);
      const stored = host.loadStep(answerStepName(key));
      if (stored) {
        moveTo(`after input ${key}`);
        return stored.value as InputAnswer;
      }
      throwIfAborted();
      // The run ends here; the task waits with nothing running and the answer wakes it.
      (yieldState.questions ??= []).push({ key, message: question.message, requestedSchema: question.requestedSchema });
      throw new JobInput();
    },
    // Named by position like a sleep: a replayed run reaches the same fan-out under the same key.
    fanOut: fanOutFunction({
      host,
      yieldState,
      steps,
      nextKey: () => `fanout:${position}#${++fanOutsHere}`,
      throwIfAborted,
    }),
  };
}
