// The poll interval a task suggests (src/core/model/poll-interval.ts), on an injected clock: no timers.
import { describe, it } from "vitest";
import { beginRun, endRun, newTask, recordProgress } from "../../src/core/model/machine";
import { answerInputs, waitForInput } from "../../src/core/model/input-wait";
import { estimatedMsLeft, POLL_POLICY, pollIntervalMs } from "../../src/core/model/poll-interval";
import type { TaskRecord } from "../../src/core";
import { countdown, follow, question, silent, T0 } from "./poll-follower";

const SCHEMA = { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] };
const policy = { maxAttempts: 3, baseSeconds: 2 };

function running(ttlMs = 3 * 86_400_000): TaskRecord {
  const created = newTask(
    {
      taskId: "a".repeat(32),
      principal: "p",
      tool: "t",
      args: {},
      requestedTtlMs: ttlMs,
      defaultTtlMs: 86_400_000,
      maxTtlMs: 7 * 86_400_000,
      pollIntervalMs: 1000,
      dispatchGraceMs: 0,
    },
    T0,
  ).record;
  return beginRun(created, "lease-1", 30_000, T0 + 50).record;
}

/** A countdown of `total` s at its `done`-th second (progress reported each second from T0 + 50). */
function counting(total: number, done: number): TaskRecord {
  let record = running();
  for (let s = 1; s <= done; s++) record = recordProgress(record, { progress: s, total }, T0 + 50 + s * 1000).record;
  return record;
}

describe("pollIntervalMs", () => {
  it("tells a new task to look again soon: the floor", ({ expect }) => {
    expect(pollIntervalMs(running(), T0)).toBe(POLL_POLICY.minMs);
  });

  it("waits half the estimated time left while progress and total give one", ({ expect }) => {
    const record = counting(90, 10);
    expect(estimatedMsLeft(record, T0 + 10_050)).toBe(80_000);
    expect(pollIntervalMs(record, T0 + 10_050)).toBe(40_000);
    // Between two reports the estimate runs down with the clock.
    expect(pollIntervalMs(record, T0 + 10_550)).toBe(39_750);
  });

  it("caps a long estimate, and comes down to the floor as the end nears", ({ expect }) => {
    expect(pollIntervalMs(counting(3600, 10), T0 + 10_050)).toBe(POLL_POLICY.estimatedCapMs);
    expect(pollIntervalMs(counting(90, 89), T0 + 89_050)).toBe(POLL_POLICY.minMs);
  });

  it("estimates from the first report alone, measured from the creation", ({ expect }) => {
    // 1 of 10 after 1.05 s: about 9.45 s left.
    expect(estimatedMsLeft(counting(10, 1), T0 + 1050)).toBeCloseTo(9450, 0);
  });

  it("grows with the task's age when there is no estimate, up to a cap", ({ expect }) => {
    const record = running();
    expect(pollIntervalMs(record, T0 + 1000)).toBe(POLL_POLICY.minMs);
    expect(pollIntervalMs(record, T0 + 8000)).toBe(2000);
    expect(pollIntervalMs(record, T0 + 40_000)).toBe(10_000);
    expect(pollIntervalMs(record, T0 + 3_600_000)).toBe(POLL_POLICY.unknownCapMs);
    // Progress without a total gives no estimate either.
    const counted = recordProgress(record, { progress: 5 }, T0 + 5000).record;
    expect(pollIntervalMs(counted, T0 + 8000)).toBe(2000);
  });

  it("looks often, then less and less, at a task late for its own estimate", ({ expect }) => {
    const record = counting(10, 5); // due at T0 + 10 050
    expect(pollIntervalMs(record, T0 + 10_500)).toBe(POLL_POLICY.minMs);
    expect(pollIntervalMs(record, T0 + 50_050)).toBe(10_000);
    expect(pollIntervalMs(record, T0 + 1_000_000)).toBe(POLL_POLICY.unknownCapMs);
  });

  it("waits for a durable sleep to end, up to the idle cap", ({ expect }) => {
    const slept = endRun(running(), "lease-1", { kind: "yielded", wakeAt: T0 + 120_000 }, policy, T0 + 1000).record;
    expect(pollIntervalMs(slept, T0 + 1000)).toBe(119_000);
    const long = endRun(running(), "lease-1", { kind: "yielded", wakeAt: T0 + 86_400_000 }, policy, T0 + 1000).record;
    expect(pollIntervalMs(long, T0 + 1000)).toBe(POLL_POLICY.idleCapMs);
  });

  it("grows with a question's wait, up to the idle cap", ({ expect }) => {
    const waiting = waitForInput(
      running(),
      "lease-1",
      [{ key: "confirm", message: "Deploy?", requestedSchema: SCHEMA }],
      T0 + 100,
    ).record;
    expect(waiting.status).toBe("input_required");
    expect(pollIntervalMs(waiting, T0 + 100)).toBe(POLL_POLICY.minMs);
    expect(pollIntervalMs(waiting, T0 + 20_100)).toBe(10_000);
    expect(pollIntervalMs(waiting, T0 + 86_400_000)).toBe(POLL_POLICY.idleCapMs);
  });

  it("restarts its pace and age when the answer comes: the wait is not work", ({ expect }) => {
    let record = recordProgress(running(), { progress: 0, total: 3 }, T0 + 60).record;
    record = waitForInput(
      record,
      "lease-1",
      [{ key: "confirm", message: "Deploy?", requestedSchema: SCHEMA }],
      T0 + 100,
    ).record;
    const day = 86_400_000;
    const answered = answerInputs(record, { confirm: { action: "accept", content: { confirm: true } } }, T0 + day);
    if (!answered.ok) throw new Error(answered.reason);
    record = beginRun(answered.transition.record, "lease-2", 30_000, T0 + day + 50).record;
    expect(pollIntervalMs(record, T0 + day + 100)).toBe(POLL_POLICY.minMs);
    record = recordProgress(record, { progress: 1, total: 3 }, T0 + day + 1050).record;
    // One of three in 1.05 s since the answer: about 2.1 s left, a short task: a look a second.
    expect(pollIntervalMs(record, T0 + day + 1050)).toBe(POLL_POLICY.shortCapMs);
  });

  it("never waits past the task's ttl, and keeps its configured interval once ended", ({ expect }) => {
    const short = running(20_000);
    expect(pollIntervalMs(short, T0 + 18_000)).toBe(2000);
    const done = endRun(running(), "lease-1", { kind: "completed", result: { content: [] } }, policy, T0 + 500).record;
    expect(pollIntervalMs(done, T0 + 10_000)).toBe(done.pollIntervalMs);
  });
});

describe("a client that polls only at the interval it is told", () => {
  it("follows a 90-s countdown in at most 15 polls and sees its end within 3 s", ({ expect }) => {
    const { polls, lateMs } = follow(countdown(90));
    expect(polls).toBeLessThanOrEqual(15);
    expect(lateMs).toBeLessThanOrEqual(3000);
  });

  it("shows a short task's progress about once a second: a 6-s countdown is told at most 1 s each time", ({
    expect,
  }) => {
    const { polls, told, lateMs } = follow(countdown(6));
    expect(Math.max(...told)).toBeLessThanOrEqual(POLL_POLICY.shortCapMs);
    // One look per second of work, give or take the first ones at the floor.
    expect(polls).toBeGreaterThanOrEqual(6);
    expect(polls).toBeLessThanOrEqual(14);
    expect(lateMs).toBeLessThanOrEqual(1000);
  });

  it("keeps a 20-s countdown at about one look a second and a 90-s one's polls few", ({ expect }) => {
    const twenty = follow(countdown(20));
    expect(Math.max(...twenty.told.slice(1, -1))).toBeLessThanOrEqual(POLL_POLICY.shortCapMs);
    expect(follow(countdown(90)).polls).toBeLessThanOrEqual(15);
  });

  it("sees a 3-s countdown end within 1.5 s", ({ expect }) => {
    const { polls, lateMs } = follow(countdown(3));
    expect(lateMs).toBeLessThanOrEqual(1500);
    expect(polls).toBeLessThanOrEqual(8);
  });

  it("follows a job with no progress with growing intervals and sees a 3-s one end within 1.5 s", ({ expect }) => {
    expect(follow(silent(3000)).lateMs).toBeLessThanOrEqual(1500);
    const hour = follow(silent(3_600_000));
    // At most one poll per unknownCapMs once old, plus the first quick ones.
    expect(hour.polls).toBeLessThanOrEqual(3_600_000 / POLL_POLICY.unknownCapMs + 25);
    expect(hour.lateMs).toBeLessThanOrEqual(POLL_POLICY.unknownCapMs);
    expect(hour.told.slice(0, 3)).toEqual([500, 500, 500]);
  });

  it("sees a task answered after 2 days end within the idle cap (a person answered elsewhere)", ({ expect }) => {
    const { lateMs } = follow(question(2 * 86_400_000));
    expect(lateMs).toBeLessThanOrEqual(POLL_POLICY.idleCapMs);
  });
});
