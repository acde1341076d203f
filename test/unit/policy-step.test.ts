// Steps with options (job.step(name, { retries, timeout }, fn)) over a memory host standing in for
// the task's tables across runs: attempts, keys, timeouts, durable retry waits, lost attempts.
import { describe, it, vi } from "vitest";
import type { JobHost } from "../../src/core";
import { createJobContext } from "../../src/jobs/job-context";
import { PermanentError, StepFailedError, type JobContext, type StepAttempt } from "../../src/jobs/context";
import { runTool } from "../../src/jobs/runner";
import type { YieldState } from "../../src/jobs/yield-state";
import { memoryHost, MemoryTables } from "./memory-host";

const TASK = "a".repeat(32);

/** The task's tables across runs, and one host per run. */
class Task extends MemoryTables {
  logs: string[] = [];
  runs = 0;
  host(overrides: Partial<JobHost> = {}): JobHost {
    this.runs += 1;
    return memoryHost(this, {
      taskId: TASK,
      attempt: this.runs,
      log: (_level, message) => void this.logs.push(message),
      ...overrides,
    });
  }
  run(yieldState: YieldState = {}): JobContext {
    return createJobContext(this.host(), yieldState);
  }
}

/** `work` on vitest's fake clock, every timer run until it ends; the fake time it took. */
async function onFakeClock<T>(work: () => Promise<T>): Promise<{ result: T; tookMs: number }> {
  vi.useFakeTimers();
  try {
    const start = Date.now();
    const pending = work();
    pending.catch(() => undefined); // awaited below, after the timers ran
    await vi.runAllTimersAsync();
    return { result: await pending, tookMs: Date.now() - start };
  } finally {
    vi.useRealTimers();
  }
}

const failing = (times: number, message = "HTTP 503 from the payment service") => {
  const seen: StepAttempt[] = [];
  const fn = (attempt: StepAttempt) => {
    seen.push(attempt);
    if (seen.length <= times) throw new Error(message);
    return { charged: true, attempt: attempt.attempt };
  };
  return { fn, seen };
};

describe("a step's retries", () => {
  it("retries a failed attempt after its backoff and returns the attempt that worked", async ({ expect }) => {
    const task = new Task();
    const { fn, seen } = failing(2);
    const { result, tookMs } = await onFakeClock(() =>
      task.run().step("charge", { retries: { limit: 3, delay: "1 second", backoff: "exponential" } }, fn),
    );
    expect(result).toEqual({ charged: true, attempt: 3 });
    expect(seen.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(tookMs).toBe(1000 + 2000);
    expect(task.logs).toEqual([
      'Step "charge" attempt 1 failed: HTTP 503 from the payment service',
      'Step "charge" attempt 2 failed: HTTP 503 from the payment service',
    ]);
  });

  it("gives every attempt and every replay of a step the same idempotency key, and other steps and tasks others", async ({
    expect,
  }) => {
    const task = new Task();
    const { fn, seen } = failing(1);
    await onFakeClock(() => task.run().step("charge", { retries: { limit: 2, delay: 0 } }, fn));
    const keys = new Set(seen.map((a) => a.idempotencyKey));
    expect(keys.size).toBe(1);
    const [key] = keys;
    expect(key).toMatch(new RegExp(`^${TASK}-[0-9a-f]{16}$`));
    // A replay that finds no result (a crash before it was stored) runs the step again under the same key.
    task.steps.clear();
    const again: string[] = [];
    await task.run().step("charge", { retries: { limit: 5 } }, (a) => void again.push(a.idempotencyKey));
    await task.run().step("plain", (a) => void again.push(a.idempotencyKey));
    const other = new Task();
    await createJobContext(other.host({ taskId: "b".repeat(32) }), {}).step(
      "charge",
      (a) => void again.push(a.idempotencyKey),
    );
    expect(again[0]).toBe(key);
    expect(new Set([key, again[1], again[2]]).size).toBe(3);
  });

  it("fails with the step's name and last error once its attempts are used up, and again on a replay", async ({
    expect,
  }) => {
    const task = new Task();
    const { fn, seen } = failing(10, "card declined");
    const policy = { retries: { limit: 3, delay: 1, backoff: "constant" as const } };
    const { result } = await onFakeClock(() =>
      runTool({ run: async (_i, job) => JSON.stringify(await job.step("charge", policy, fn)) }, {}, task.host()),
    );
    expect(result).toEqual({
      kind: "failed",
      permanent: true,
      message: 'Step "charge" failed after 3 attempts: card declined',
    });
    const replay = await runTool(
      { run: async (_i, job) => JSON.stringify(await job.step("charge", policy, fn)) },
      {},
      task.host(),
    );
    expect(replay).toEqual(result);
    expect(seen).toHaveLength(3);
  });

  it("lets the tool catch a step that failed for good", async ({ expect }) => {
    const task = new Task();
    const { fn } = failing(10, "card declined");
    const outcome = await runTool(
      {
        async run(_input, job) {
          try {
            return JSON.stringify(await job.step("charge", { retries: { limit: 1 } }, fn));
          } catch (error) {
            if (!(error instanceof StepFailedError)) throw error;
            return `Not charged: ${error.lastError} (${error.step}, ${error.attempts} attempt).`;
          }
        },
      },
      {},
      task.host(),
    );
    expect(outcome).toMatchObject({
      kind: "completed",
      result: { content: [{ text: "Not charged: card declined (charge, 1 attempt)." }] },
    });
  });

  it("does not retry a PermanentError, and a replay that meets the step again throws it again", async ({ expect }) => {
    const task = new Task();
    let calls = 0;
    const fn = () => {
      calls += 1;
      throw new PermanentError("the card number is invalid");
    };
    await expect(task.run().step("charge", { retries: { limit: 5, delay: 0 } }, fn)).rejects.toThrow(
      "the card number is invalid",
    );
    // A tool that caught it and slept: its next run reaches the step again, and gives up the same way.
    await expect(task.run().step("charge", { retries: { limit: 5, delay: 0 } }, fn)).rejects.toMatchObject({
      name: "PermanentError",
      message: "the card number is invalid",
    });
    expect(calls).toBe(1);
  });

  it("waits durably for a long retry delay: the run yields until the next attempt is due", async ({ expect }) => {
    vi.useFakeTimers();
    try {
      const task = new Task();
      const { fn, seen } = failing(1);
      const tool = {
        run: async (_i: unknown, job: JobContext) =>
          JSON.stringify(await job.step("charge", { retries: { limit: 2, delay: "10 minutes" } }, fn)),
      };
      const first = await runTool(tool, {}, task.host());
      expect(first).toMatchObject({
        kind: "yielded",
        wakeAt: Date.now() + 600_000,
        reason: 'retrying step "charge" (attempt 2 of 2)',
      });
      // A run that comes early waits again for the same instant, without a new attempt.
      expect(await runTool(tool, {}, task.host())).toMatchObject({ kind: "yielded", wakeAt: Date.now() + 600_000 });
      expect(seen).toHaveLength(1);
      vi.setSystemTime(Date.now() + 600_000);
      expect(await runTool(tool, {}, task.host())).toMatchObject({ kind: "completed" });
      expect(seen.map((a) => a.attempt)).toEqual([1, 2]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("leaves retries job-wide without `retries`: the error goes up as thrown, and the next run's attempt is the next", async ({
    expect,
  }) => {
    const task = new Task();
    const { fn, seen } = failing(1, "boom");
    await expect(task.run().step("s", { timeout: 60 }, fn)).rejects.toThrow(/^boom$/);
    expect(await task.run().step("s", { timeout: 60 }, fn)).toEqual({ charged: true, attempt: 2 });
    expect(seen.map((a) => a.attempt)).toEqual([1, 2]);
  });
});

describe("an attempt's timeout", () => {
  it("aborts the attempt's signal and fails the attempt, so the next one runs", async ({ expect }) => {
    const task = new Task();
    const reasons: unknown[] = [];
    const fn = ({ attempt, signal }: StepAttempt) =>
      attempt === 2
        ? "done"
        : new Promise<string>((_, reject) => {
            signal.addEventListener("abort", () => {
              reasons.push(signal.reason);
              reject(signal.reason);
            });
          });
    const { result, tookMs } = await onFakeClock(() =>
      task.run().step("slow", { retries: { limit: 2, delay: 1 }, timeout: "5 seconds" }, fn),
    );
    expect(result).toBe("done");
    expect(tookMs).toBe(5000 + 1000);
    expect(String(reasons[0])).toMatch(/ran past its timeout of 5 s/);
    expect(task.logs[0]).toBe('Step "slow" attempt 1 failed: it ran past its timeout of 5 s');
  });

  it("fails an attempt at its timeout even when its function ignores the signal", async ({ expect }) => {
    const task = new Task();
    const step = onFakeClock(() =>
      task.run().step("stuck", { retries: { limit: 1 }, timeout: 2 }, () => new Promise<never>(() => undefined)),
    );
    await expect(step).rejects.toThrow('Step "stuck" failed after 1 attempt: it ran past its timeout of 2 s');
  });
});

describe("an attempt its run left mid-way", () => {
  it("is told to the next attempt as interrupted, and counts as an attempt", async ({ expect }) => {
    const task = new Task();
    // The first run starts attempt 1 and is lost with it (its process ends: the promise never settles).
    void task.run().step("deploy", { retries: { limit: 3 } }, () => new Promise(() => undefined));
    await vi.waitFor(() => expect(task.attempts.size).toBe(1));
    const seen: StepAttempt[] = [];
    await task.run().step("deploy", { retries: { limit: 3 } }, (a) => void seen.push(a));
    expect(seen.map(({ attempt, interrupted }) => ({ attempt, interrupted }))).toEqual([
      { attempt: 2, interrupted: true },
    ]);
    expect(task.logs).toEqual(['Step "deploy" attempt 1 was interrupted: its run stopped before it ended.']);
  });

  it("fails the step when the lost attempt was its last", async ({ expect }) => {
    const task = new Task();
    void task.run().step("deploy", { retries: { limit: 1 } }, () => new Promise(() => undefined));
    await vi.waitFor(() => expect(task.attempts.size).toBe(1));
    await expect(task.run().step("deploy", { retries: { limit: 1 } }, () => "never")).rejects.toThrow(
      'Step "deploy" failed after 1 attempt: its run stopped before the attempt ended (a crash or a deploy)',
    );
  });
});

describe("durable waits inside a step with options", () => {
  it("are refused at the call, naming the step", async ({ expect }) => {
    const job = new Task().run();
    await expect(job.step("s", { retries: { limit: 2 } }, () => job.sleep(60))).rejects.toThrow(
      /job\.sleep was called inside job\.step\("s"\), where each attempt of a step with options/,
    );
    // Nor in a step inside one: each attempt runs it again too.
    await expect(
      job.step("u", { retries: { limit: 2 } }, () => job.step("inner", () => job.sleep(60))),
    ).rejects.toThrow(/job\.sleep was called inside job\.step\("inner"\), where each attempt of a step with options/);
    await expect(
      job.step("t", {}, () => job.elicit("k", { message: "ok?", requestedSchema: { type: "object", properties: {} } })),
    ).rejects.toThrow(/job\.elicit was called inside job\.step\("t"\)/);
  });
});
