/**
 * Open-loop sampling for issue 54's busy principal: calls leave on a fixed schedule (one every
 * 1000 / rate ms) whether or not earlier ones were answered, as independent callers sharing one
 * principal would send them; back-to-back sampling would slow down exactly when the server does and
 * hide the queueing the issue is about.
 */
import { setTimeout as sleep } from "node:timers/promises";

export interface OpenLoopResult {
  /** Each answered call's latency (ms), in the order sent. */
  latencies: number[];
  /** Calls that failed, with the first error's text. */
  errors: number;
  firstError?: string;
  /** How late the schedule ran on average (ms): the client's own lag, reported so it can be ruled out. */
  meanLagMs: number;
}

/** Sends `count` calls of `call`, one each 1000 / `perSecond` ms, and waits for every answer. */
export async function openLoop(perSecond: number, count: number, call: () => Promise<number>): Promise<OpenLoopResult> {
  const gap = 1000 / perSecond;
  const start = performance.now();
  const pending: Promise<void>[] = [];
  const latencies: (number | undefined)[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let lag = 0;
  for (let i = 0; i < count; i++) {
    const due = start + i * gap;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    lag += Math.max(0, performance.now() - due);
    pending.push(
      call().then(
        (ms) => {
          latencies[i] = ms;
        },
        (error: unknown) => {
          errors += 1;
          firstError ??= error instanceof Error ? error.message : String(error);
        },
      ),
    );
  }
  await Promise.all(pending);
  return {
    latencies: latencies.filter((ms): ms is number => ms !== undefined),
    errors,
    ...(firstError !== undefined && { firstError }),
    meanLagMs: lag / count,
  };
}
