import { describe, it } from "vitest";
import { z } from "zod";
import {
  awaitFanOut,
  fanOutProgress,
  isAwaitingFanOut,
  rearmFanOutWait,
  wakeFromFanOut,
} from "../../src/core/fan-out/record-wait";
import type { FanOutRequest, FanOutStatus } from "../../src/core/fan-out/ledger";
import { beginRun, cancelTask, endRun, isDueToRun, newTask, nextAlarmAt } from "../../src/core/model/machine";
import type { FanOutPort, JobHost } from "../../src/core/ports";
import type { ItemResult } from "../../src/core/fan-out/tables";
import { PermanentError } from "../../src/jobs/context";
import { createJobContext } from "../../src/jobs/job-context";
import type { YieldState } from "../../src/jobs/yield-state";
import { runTool } from "../../src/jobs/runner";
import { defineStep } from "../../src/jobs/steps";
import { MAX_STEP_INPUT_BYTES } from "../../src/jobs/fan-out";
import batchProcess from "../../src/tools/batch-process";
import { taskQueues } from "../../src/queues/task-queues";
import { memoryHost, MemoryTables } from "./memory-host";

const T = 1_000_000;
const policy = { maxAttempts: 3, baseSeconds: 2 };

function runningTask() {
  const created = newTask(
    {
      taskId: "a".repeat(32),
      principal: "p",
      tool: "batch_process",
      args: {},
      defaultTtlMs: 3_600_000,
      maxTtlMs: 3_600_000,
      pollIntervalMs: 1000,
      dispatchGraceMs: 0,
    },
    T,
  ).record;
  return beginRun(created, "lease-1", 30_000, T).record;
}

describe("a job waiting on its fan-out (record transitions)", () => {
  it("ends the run asleep, flagged as awaiting, due at once so the alarm sends the items", ({ expect }) => {
    const { record, events } = endRun(
      runningTask(),
      "lease-1",
      { kind: "awaiting_fan_out", message: "0 of 3 items done." },
      policy,
      T + 10,
    );
    expect(record.run).toMatchObject({ phase: "sleeping", awaiting: "fan-out", wakeAt: T + 10 });
    expect(record.run.leaseId).toBeUndefined();
    expect(record.statusMessage).toBe("0 of 3 items done.");
    expect(events.map((e) => e.type)).toEqual(["status"]);
    expect(isAwaitingFanOut(record)).toBe(true);
  });

  it("ignores the wait of a run that lost its lease", ({ expect }) => {
    const task = runningTask();
    expect(awaitFanOut(task, "someone-else", "x", T).record).toBe(task);
  });

  it("moves its alarm to the next redelivery check, never past the task's expiry", ({ expect }) => {
    const waiting = awaitFanOut(runningTask(), "lease-1", "m", T).record;
    const rearmed = rearmFanOutWait(waiting, T + 30_000).record;
    expect(nextAlarmAt(rearmed)).toBe(T + 30_000);
    expect(rearmFanOutWait(waiting, T + 10 * 3_600_000).record.run.wakeAt).toBe(waiting.expiresAt);
    expect(rearmFanOutWait(rearmed, T + 30_000).record).toBe(rearmed);
  });

  it("is woken due now, and no longer awaiting, so the alarm replays the job", ({ expect }) => {
    const waiting = rearmFanOutWait(awaitFanOut(runningTask(), "lease-1", "m", T).record, T + 30_000).record;
    const woken = wakeFromFanOut(waiting, T + 5).record;
    expect(woken.run).toMatchObject({ phase: "sleeping", wakeAt: T + 5 });
    expect(woken.run.awaiting).toBeUndefined();
    expect(isDueToRun(woken, T + 5)).toBe(true);
    expect(wakeFromFanOut(woken, T + 6).record).toBe(woken);
  });

  it("is not woken once cancelled", ({ expect }) => {
    const waiting = awaitFanOut(runningTask(), "lease-1", "m", T).record;
    const cancelled = cancelTask(waiting, "stop", T + 1);
    if (!cancelled.ok) throw new Error("cancel refused");
    expect(isAwaitingFanOut(cancelled.transition.record)).toBe(false);
    expect(wakeFromFanOut(cancelled.transition.record, T + 2).record).toBe(cancelled.transition.record);
  });

  it("records progress only when it moves, and keeps the message without a status event", ({ expect }) => {
    const waiting = awaitFanOut(runningTask(), "lease-1", "0 of 3 items done.", T).record;
    const one = fanOutProgress(waiting, { progress: 1, total: 3 }, "1 of 3 items done.", T + 1);
    expect(one.events).toEqual([{ type: "progress", data: { progress: 1, total: 3 } }]);
    expect(one.record.statusMessage).toBe("1 of 3 items done.");
    const claimed = fanOutProgress(one.record, { progress: 1, total: 3 }, "1 of 3 items done, 2 running.", T + 2);
    expect(claimed.events).toEqual([]);
    expect(claimed.record.statusMessage).toBe("1 of 3 items done, 2 running.");
    expect(fanOutProgress(claimed.record, undefined, "1 of 3 items done, 2 running.", T + 3).record).toBe(
      claimed.record,
    );
  });
});

/** A FanOutPort over a map, standing in for the TaskObject: results are set by the test. */
class FakeFanOuts implements FanOutPort {
  started: FanOutRequest[] = [];
  results = new Map<string, ItemResult[]>();
  status(key: string): FanOutStatus | undefined {
    const items = this.results.get(key);
    if (items) return { state: "finished", items };
    const started = this.started.find((r) => r.key === key);
    return started && { state: "pending", finished: 0, total: started.inputs.length };
  }
  start(request: FanOutRequest): void {
    this.started.push(request);
  }
  /** The key of the one fan-out started so far. */
  only(): string {
    if (this.started.length !== 1) throw new Error(`${this.started.length} fan-outs started, not one`);
    return this.started[0]?.key ?? "";
  }
  finish(key: string, values: (number | string)[]) {
    this.results.set(
      key,
      values.map((v, index) =>
        typeof v === "number"
          ? { index, state: "done", value: JSON.stringify(v), attempts: 1 }
          : { index, state: "failed", error: v, attempts: 3 },
      ),
    );
  }
}

function host(fanOut?: FanOutPort): JobHost {
  return memoryHost(new MemoryTables(), { ...(fanOut && { fanOut }) });
}

const square = defineStep({ input: z.object({ n: z.number() }), run: ({ n }) => n * n });
const other = defineStep({ input: z.object({ n: z.number() }), run: ({ n }) => n });
const steps = { square };

describe("job.fanOut", () => {
  it("stores the items as JSON, then ends the run to wait for them", async ({ expect }) => {
    const fake = new FakeFanOuts();
    const state: YieldState = {};
    const job = createJobContext(host(fake), state, steps);
    await expect(job.fanOut(square, [{ n: 1 }, { n: 2 }])).rejects.toMatchObject({ name: "FanOutWait" });
    expect(fake.started).toEqual([
      {
        key: expect.stringMatching(/^fanout:[0-9a-f]{16}#1$/),
        step: "square",
        inputs: ['{"n":1}', '{"n":2}'],
        settle: false,
        progress: true,
      },
    ]);
    expect(state.fanOut).toEqual({ message: "0 of 2 items done." });
  });

  it("returns the stored results in input order on the replay, starting nothing new", async ({ expect }) => {
    const fake = new FakeFanOuts();
    await createJobContext(host(fake), {}, steps)
      .fanOut(square, [{ n: 3 }, { n: 1 }, { n: 2 }])
      .catch(() => undefined);
    fake.finish(fake.only(), [9, 1, 4]);
    const state: YieldState = {};
    expect(await createJobContext(host(fake), state, steps).fanOut(square, [{ n: 3 }, { n: 1 }, { n: 2 }])).toEqual([
      9, 1, 4,
    ]);
    expect(fake.started).toHaveLength(1);
    expect(state.fanOut).toBeUndefined();
  });

  it("names fan-outs by what they fan out, so a replay reaches each under its key in any order", async ({ expect }) => {
    const fake = new FakeFanOuts();
    const job = createJobContext(host(fake), {}, steps);
    await job.step("list", () => 1);
    await Promise.allSettled([job.fanOut(square, [{ n: 1 }]), job.fanOut(square, [{ n: 2 }])]);
    const keys = fake.started.map((r) => r.key);
    expect(new Set(keys).size).toBe(2);
    // The replay calls them the other way round: each still finds its own.
    const replay = createJobContext(host(fake), {}, steps);
    await replay.step("list", () => 1);
    await Promise.allSettled([replay.fanOut(square, [{ n: 2 }]), replay.fanOut(square, [{ n: 1 }])]);
    expect(fake.started.map((r) => r.key)).toEqual(keys);
  });

  it("fails the job naming the item, its input and its error, unless asked to settle", async ({ expect }) => {
    const fake = new FakeFanOuts();
    const inputs = [{ n: 1 }, { n: 2 }, { n: 3 }];
    await createJobContext(host(fake), {}, steps)
      .fanOut(square, inputs)
      .catch(() => undefined);
    fake.finish(fake.only(), [1, "HTTP 503 (gave up after 3 attempts)", 9]);
    const failure = createJobContext(host(fake), {}, steps).fanOut(square, inputs);
    await expect(failure).rejects.toMatchObject({
      name: "PermanentError",
      index: 1,
      message: 'square[1] (input {"n":2}) failed: HTTP 503 (gave up after 3 attempts)',
    });
    const settled = await createJobContext(host(fake), {}, steps).fanOut(square, inputs, { settle: true });
    expect(settled).toEqual([
      { ok: true, value: 1 },
      { ok: false, error: "HTTP 503 (gave up after 3 attempts)" },
      { ok: true, value: 9 },
    ]);
  });

  it("refuses a step the tool does not list and input its schema rejects; other inputs are another fan-out", async ({
    expect,
  }) => {
    const fake = new FakeFanOuts();
    await expect(createJobContext(host(fake), {}, steps).fanOut(other, [{ n: 1 }])).rejects.toMatchObject({
      name: "PermanentError",
      message: expect.stringContaining("not listed"),
    });
    await expect(
      createJobContext(host(fake), {}, steps).fanOut(square, [{ n: 1 }, { n: "two" as unknown as number }]),
    ).rejects.toMatchObject({
      name: "PermanentError",
      message: expect.stringContaining("input 1 does not match"),
    });
    expect(fake.started).toEqual([]);
    await createJobContext(host(fake), {}, steps)
      .fanOut(square, [{ n: 1 }])
      .catch(() => undefined);
    // A fan-out is named by what it fans out (docs/writing-tools.md): changed inputs make a new one.
    await expect(createJobContext(host(fake), {}, steps).fanOut(square, [{ n: 1 }, { n: 2 }])).rejects.toMatchObject({
      name: "FanOutWait",
    });
    expect(new Set(fake.started.map((r) => r.key)).size).toBe(2);
  });

  it("refuses an input over 128 KiB: the consumer's claim carries up to 100 of them", async ({ expect }) => {
    const fake = new FakeFanOuts();
    const text = defineStep({ input: z.object({ s: z.string() }), run: ({ s }) => s.length });
    const job = createJobContext(host(fake), {}, { text });
    await expect(job.fanOut(text, [{ s: "x" }, { s: "x".repeat(MAX_STEP_INPUT_BYTES) }])).rejects.toMatchObject({
      name: "PermanentError",
      message: expect.stringMatching(/input 1 is \d+ bytes; it may be at most 131072/),
    });
    expect(fake.started).toEqual([]);
  });

  it("turns automatic progress off when asked, and passes settle on", async ({ expect }) => {
    const fake = new FakeFanOuts();
    await createJobContext(host(fake), {}, steps)
      .fanOut(square, [{ n: 1 }], { settle: true, progress: false })
      .catch(() => undefined);
    expect(fake.started[0]).toMatchObject({ settle: true, progress: false });
  });

  it("fails its task at once, naming STEPS, where the Worker binds no step queue (nothing is stored to retry)", async ({
    expect,
  }) => {
    // The port as a TaskObject wires it from an adopter's env without STEPS (src/queues/task-queues.ts).
    const metrics = { backlogCount: 0, backlogBytes: 0 };
    const queue: Queue = {
      metrics: async () => metrics,
      send: async () => ({ metadata: { metrics } }),
      sendBatch: async () => ({ metadata: { metrics } }),
    };
    const { unavailable } = taskQueues({ JOBS: queue }).steps;
    const fake = Object.assign(new FakeFanOuts(), { unavailable });
    const failure = createJobContext(host(fake), {}, steps).fanOut(square, [{ n: 1 }, { n: 2 }]);
    await expect(failure).rejects.toMatchObject({
      name: "PermanentError",
      message: expect.stringContaining('add { "binding": "STEPS"'),
    });
    expect(fake.started).toEqual([]);
  });

  it("returns [] for no inputs without storing anything", async ({ expect }) => {
    const fake = new FakeFanOuts();
    expect(await createJobContext(host(fake), {}, steps).fanOut(square, [])).toEqual([]);
    expect(fake.started).toEqual([]);
  });

  it("runs the items in place, concurrently, when there is no task (an inline call)", async ({ expect }) => {
    const job = createJobContext(host(), {}, steps);
    expect(await job.fanOut(square, [{ n: 2 }, { n: 3 }])).toEqual([4, 9]);
    const failing = defineStep({
      input: z.object({ n: z.number() }),
      run: ({ n }) => {
        if (n === 2) throw new PermanentError("two is not allowed");
        return n;
      },
    });
    const settled = await createJobContext(host(), {}, { failing }).fanOut(failing, [{ n: 1 }, { n: 2 }], {
      settle: true,
    });
    expect(settled).toEqual([
      { ok: true, value: 1 },
      { ok: false, error: "two is not allowed" },
    ]);
  });

  it("makes the run's outcome a wait for the fan-out, even if the tool swallowed the throw", async ({ expect }) => {
    const fake = new FakeFanOuts();
    const outcome = await runTool(batchProcess, { items: 3, secondsPerItem: 0, parallel: true }, host(fake));
    expect(outcome).toEqual({ kind: "awaiting_fan_out", message: "0 of 3 items done." });
    fake.finish(fake.only(), [1, 4, 9]);
    const replay = await runTool(batchProcess, { items: 3, secondsPerItem: 0, parallel: true }, host(fake));
    expect(replay).toEqual({
      kind: "completed",
      result: {
        content: [{ type: "text", text: "Processed 3 items." }],
        structuredContent: { summary: "Processed 3 items.", items: 3, checksum: 14 },
      },
    });
  });
});
