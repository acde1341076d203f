import { describe, it } from "vitest";
import {
  beginRun,
  cancelTask,
  effectiveTtl,
  endRun,
  failDelivery,
  failRun,
  finishRun,
  isDueToRun,
  markDelivered,
  newTask,
  nextAlarmAt,
  recordProgress,
  renewLease,
  retryDelayMs,
  yieldRun,
} from "../../src/core/model/machine";
import { endInheritedLease } from "../../src/core/model/inherited-lease";
import type { TaskRecord } from "../../src/core";
import { toTaskView } from "../../src/core/model/view";

const T0 = 1_700_000_000_000;
const policy = { maxAttempts: 3, baseSeconds: 2 };

function created(overrides: Partial<Parameters<typeof newTask>[0]> = {}): TaskRecord {
  return newTask(
    {
      taskId: "a".repeat(32),
      principal: "alice",
      tool: "countdown",
      args: { seconds: 3 },
      defaultTtlMs: 60_000,
      maxTtlMs: 120_000,
      pollIntervalMs: 1000,
      dispatchGraceMs: 15_000,
      ...overrides,
    },
    T0,
  ).record;
}

function running(): TaskRecord {
  return beginRun(markDelivered(created()).record, "lease-1", 30_000, T0 + 10).record;
}

describe("newTask", () => {
  it("starts working, queued, with a status event", ({ expect }) => {
    const { record, events } = newTask(
      {
        taskId: "a".repeat(32),
        principal: "p",
        tool: "t",
        args: {},
        defaultTtlMs: 1000,
        maxTtlMs: 2000,
        pollIntervalMs: 500,
        dispatchGraceMs: 10,
      },
      T0,
    );
    expect(record.status).toBe("working");
    expect(record.run.phase).toBe("queued");
    expect(events.map((e) => e.type)).toEqual(["status"]);
    expect(toTaskView(record, T0)).toMatchObject({
      ttl: 1000,
      pollInterval: 500,
      createdAt: new Date(T0).toISOString(),
    });
  });

  it("honours the requested ttl up to the maximum", ({ expect }) => {
    expect(effectiveTtl(5000, 60_000, 120_000)).toBe(5000);
    expect(effectiveTtl(10_000_000, 60_000, 120_000)).toBe(120_000);
    expect(effectiveTtl(null, 60_000, 120_000)).toBe(60_000);
    expect(effectiveTtl(-5, 60_000, 120_000)).toBe(60_000);
    expect(created({ requestedTtlMs: 999_999_999 }).expiresAt).toBe(T0 + 120_000);
  });
});

describe("dispatch", () => {
  it("is due once delivered, or after the dispatch grace without delivery", ({ expect }) => {
    const record = created();
    expect(isDueToRun(record, T0 + 1)).toBe(false);
    expect(isDueToRun(record, T0 + 15_000)).toBe(true);
    expect(isDueToRun(markDelivered(record).record, T0 + 1)).toBe(true);
  });

  it("treats a second delivery as a duplicate", ({ expect }) => {
    const once = markDelivered(created()).record;
    expect(markDelivered(once).record).toBe(once);
    expect(markDelivered(running()).record.run.phase).toBe("running");
  });

  it("does not start a run that is not due, or a second one while the lease is fresh", ({ expect }) => {
    const record = created();
    expect(beginRun(record, "l", 1000, T0 + 1).record).toBe(record);
    const live = running();
    expect(beginRun(live, "other", 30_000, T0 + 20).record).toBe(live);
  });
});

describe("leases", () => {
  it("restarts a run whose lease expired, with a log event", ({ expect }) => {
    const live = running();
    expect(isDueToRun(live, T0 + 30_009)).toBe(false);
    const { record, events } = beginRun(live, "lease-2", 30_000, T0 + 30_010);
    expect(record.run.leaseId).toBe("lease-2");
    expect(record.run.runs).toBe(2);
    expect(events.map((e) => e.type)).toEqual(["log", "status"]);
  });

  it("renews only the holder's lease", ({ expect }) => {
    const live = running();
    expect(renewLease(live, "lease-1", 30_000, T0 + 5000).record.run.leaseUntil).toBe(T0 + 35_000);
    expect(renewLease(live, "stale", 30_000, T0 + 5000).record).toBe(live);
  });

  it("fails a job whose runs keep dying with their process, instead of restarting it until its ttl", ({ expect }) => {
    // Each run dies with its lease held: the next start is a recovery.
    let record = running();
    let at = T0;
    const loseAndRestart = (lease: string) => {
      at += 31_000;
      return beginRun(record, lease, 30_000, at, 3);
    };
    record = loseAndRestart("lease-2").record;
    expect(record.run).toMatchObject({ phase: "running", lostRuns: 1, runs: 2 });
    record = loseAndRestart("lease-3").record;
    expect(record.run).toMatchObject({ phase: "running", lostRuns: 2, runs: 3 });
    const given = loseAndRestart("lease-4");
    expect(given.record.status).toBe("failed");
    expect(given.record.run.runs).toBe(3);
    expect(given.record.statusMessage).toMatch(/stopped responding 3 times in a row/);
    expect(given.record.outcome).toMatchObject({ kind: "result", result: { isError: true } });
    expect(given.events.map((e) => e.type)).toEqual(["status", "result"]);
  });

  it("counts only lost runs in a row: a run that ends normally starts the count again", ({ expect }) => {
    let record = beginRun(running(), "lease-2", 30_000, T0 + 31_000, 3).record;
    record = beginRun(record, "lease-3", 30_000, T0 + 62_000, 3).record;
    expect(record.run.lostRuns).toBe(2);
    // This run sleeps (ends normally); the next start is not a recovery.
    record = yieldRun(record, "lease-3", T0 + 70_000, undefined, T0 + 63_000).record;
    record = beginRun(record, "lease-4", 30_000, T0 + 70_000, 3).record;
    expect(record.run).toMatchObject({ phase: "running", lostRuns: 0 });
    record = beginRun(record, "lease-5", 30_000, T0 + 101_000, 3).record;
    expect(record.run).toMatchObject({ phase: "running", lostRuns: 1 });
  });

  it("ignores the outcome of a run that lost its lease", ({ expect }) => {
    const live = running();
    const restarted = beginRun(live, "lease-2", 30_000, T0 + 40_000).record;
    expect(finishRun(restarted, "lease-1", { content: [] }, T0 + 41_000).record).toBe(restarted);
  });

  it("ends a lease a new instance inherits now, so the run restarts at once (once, with its log)", ({ expect }) => {
    const live = running();
    const ended = endInheritedLease(live, T0 + 1000);
    expect(ended.events).toEqual([]);
    expect(ended.record.run).toMatchObject({ phase: "running", leaseId: "lease-1", leaseUntil: T0 + 1000 });
    expect(isDueToRun(ended.record, T0 + 1000)).toBe(true);
    expect(nextAlarmAt(ended.record)).toBe(T0 + 1000);
    const { record, events } = beginRun(ended.record, "lease-2", 30_000, T0 + 1000);
    expect(record.run).toMatchObject({ runs: 2, lostRuns: 1, leaseId: "lease-2" });
    expect(events.map((e) => e.type)).toEqual(["log", "status"]);
  });

  it("leaves alone a record that holds no live run lease", ({ expect }) => {
    const asleep = yieldRun(running(), "lease-1", T0 + 60_000, undefined, T0 + 1000).record;
    const expired = running();
    const cancelled = cancelTask(running(), "stop", T0 + 1000);
    if (!cancelled.ok) throw new Error("not cancelled");
    for (const record of [created(), asleep, cancelled.transition.record])
      expect(endInheritedLease(record, T0 + 2000).record).toBe(record);
    expect(endInheritedLease(expired, T0 + 40_000).record).toBe(expired);
  });
});

describe("outcomes", () => {
  it("completes exactly once, with status and result events", ({ expect }) => {
    const { record, events } = finishRun(running(), "lease-1", { content: [{ type: "text", text: "ok" }] }, T0 + 100);
    expect(record.status).toBe("completed");
    expect(events.map((e) => e.type)).toEqual(["status", "result"]);
    expect(finishRun(record, "lease-1", { content: [] }, T0 + 200).record).toBe(record);
  });

  it("fails a task whose tool result has isError", ({ expect }) => {
    expect(finishRun(running(), "lease-1", { content: [], isError: true }, T0 + 100).record.status).toBe("failed");
  });

  it("retries thrown errors with exponential backoff, then fails", ({ expect }) => {
    let record = running();
    record = failRun(record, "lease-1", "boom", false, policy, T0 + 100).record;
    expect(record.status).toBe("working");
    expect(record.run.phase).toBe("backoff");
    expect(record.run.wakeAt).toBe(T0 + 100 + 2000);
    record = beginRun(record, "lease-2", 30_000, T0 + 2100).record;
    record = failRun(record, "lease-2", "boom", false, policy, T0 + 2200).record;
    expect(record.run.wakeAt).toBe(T0 + 2200 + 4000);
    record = beginRun(record, "lease-3", 30_000, T0 + 6200).record;
    const last = failRun(record, "lease-3", "boom", false, policy, T0 + 6300);
    expect(last.record.status).toBe("failed");
    expect(last.record.outcome).toMatchObject({ kind: "result", result: { isError: true } });
    expect(retryDelayMs(20, 2)).toBe(3600_000);
  });

  it("fails at once on a permanent error", ({ expect }) => {
    expect(failRun(running(), "lease-1", "bad input", true, policy, T0 + 100).record.status).toBe("failed");
  });

  it("keeps a sleeping task working and wakes it at the requested time", ({ expect }) => {
    const { record, events } = yieldRun(running(), "lease-1", T0 + 3_600_000, "Waiting for export", T0 + 100);
    expect(record.status).toBe("working");
    expect(record.statusMessage).toBe("Waiting for export");
    expect(events.map((e) => e.type)).toEqual(["status"]);
    expect(nextAlarmAt(record)).toBe(Math.min(T0 + 3_600_000, record.expiresAt));
    expect(isDueToRun(record, T0 + 50_000)).toBe(false);
    expect(isDueToRun(record, T0 + 3_600_000)).toBe(true);
  });

  it("cancels a working task and refuses to cancel a terminal one", ({ expect }) => {
    const result = cancelTask(running(), "by request", T0 + 100);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.transition.record.status).toBe("cancelled");
    expect(isDueToRun(result.transition.record, T0 + 10_000_000)).toBe(false);
    expect(cancelTask(result.transition.record, "again", T0 + 200)).toEqual({ ok: false, reason: "terminal" });
  });

  it("fails an undeliverable job with a JSON-RPC error outcome", ({ expect }) => {
    const { record } = failDelivery(created(), "no delivery", T0 + 100);
    expect(record.outcome).toEqual({ kind: "error", error: { code: -32603, message: "no delivery" } });
  });
});

describe("endRun", () => {
  it("a long wait says until when and why in the status; a short one changes nothing the client sees", ({ expect }) => {
    const long = endRun(
      running(),
      "lease-1",
      { kind: "yielded", wakeAt: T0 + 60_000, reason: "polling" },
      policy,
      T0 + 20,
    );
    expect(long.record.run).toMatchObject({ phase: "sleeping", wakeAt: T0 + 60_000 });
    expect(long.record.statusMessage).toBe(`Waiting until ${new Date(T0 + 60_000).toISOString()}: polling.`);
    expect(long.events.map((e) => e.type)).toEqual(["status"]);
    const short = endRun(running(), "lease-1", { kind: "yielded", wakeAt: T0 + 1000 }, policy, T0 + 20);
    expect(short.record.run.phase).toBe("sleeping");
    expect(short.events).toEqual([]);
  });

  it("completes, fails or leaves an aborted run's task as it is", ({ expect }) => {
    expect(
      endRun(running(), "lease-1", { kind: "completed", result: { content: [] } }, policy, T0 + 20).record.status,
    ).toBe("completed");
    expect(
      endRun(running(), "lease-1", { kind: "failed", message: "boom", permanent: true }, policy, T0 + 20).record.status,
    ).toBe("failed");
    const record = running();
    expect(endRun(record, "lease-1", { kind: "aborted" }, policy, T0 + 20).record).toBe(record);
  });
});

describe("progress", () => {
  it("keeps only increasing values, so replays emit each value once", ({ expect }) => {
    let record = running();
    const first = recordProgress(record, { progress: 1, total: 3 }, T0 + 100);
    expect(first.events).toHaveLength(1);
    record = first.record;
    expect(recordProgress(record, { progress: 1, total: 3 }, T0 + 100).events).toHaveLength(0);
    expect(recordProgress(record, { progress: 0.5 }, T0 + 100).events).toHaveLength(0);
    expect(recordProgress(record, { progress: 2, total: 3 }, T0 + 100).record.progress).toEqual({
      progress: 2,
      total: 3,
    });
    expect(recordProgress(record, { progress: Number.NaN }, T0 + 100).events).toHaveLength(0);
  });
});
