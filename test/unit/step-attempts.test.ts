// What the task document shows of a journal of step attempts: each step's state, its attempts, the
// durations of the last few and its last error, for the latest steps only.
import { describe, it } from "vitest";
import { attemptEndKey, attemptStartKey, foldAttempts } from "../../src/core/model/step-attempts";

const start = (step: string, n: number) => ({ key: attemptStartKey(step, n), value: { startedAt: n } });
const end = (step: string, n: number, value: Record<string, unknown>) => ({ key: attemptEndKey(step, n), value });

describe("the journal of step attempts, as the task document shows it", () => {
  it("sums up each step: running, retrying, succeeded or failed, with its last error", ({ expect }) => {
    const rows = [
      start("a", 1),
      end("a", 1, { ms: 5, error: "503", retryAt: 0 }),
      start("a", 2),
      end("a", 2, { ms: 7 }),
      start("b", 1),
      end("b", 1, { ms: 3, error: "boom" }),
      start("c", 1),
      end("c", 1, { ms: 0, error: "lost", lost: true, retryAt: 1000 }),
      start("d", 1),
    ];
    expect(foldAttempts(rows)).toEqual([
      { name: "a", state: "succeeded", attempts: 2, durationsMs: [5, 7], lastError: "503" },
      { name: "b", state: "failed", attempts: 1, durationsMs: [3], lastError: "boom" },
      {
        name: "c",
        state: "retrying",
        attempts: 1,
        durationsMs: [0],
        lastError: "lost",
        retryAt: "1970-01-01T00:00:01.000Z",
      },
      { name: "d", state: "running", attempts: 1, durationsMs: [] },
    ]);
  });

  it("stays bounded: the latest steps, the last durations, errors clipped", ({ expect }) => {
    const rows = [];
    for (let s = 0; s < 30; s++) {
      for (let n = 1; n <= 8; n++) rows.push(start(`s${s}`, n), end(`s${s}`, n, { ms: n, error: "x".repeat(5000) }));
    }
    const steps = foldAttempts(rows);
    expect(steps).toHaveLength(20);
    expect(steps[0]?.name).toBe("s10");
    expect(steps[0]?.durationsMs).toEqual([4, 5, 6, 7, 8]);
    expect(steps[0]?.lastError?.length).toBeLessThanOrEqual(300);
    expect(JSON.stringify(steps).length).toBeLessThan(20 * 500);
  });

  it("skips rows it cannot read", ({ expect }) => {
    expect(foldAttempts([{ key: "x\u0000y", value: {} }, end("a", 1, { ms: "slow" })])).toEqual([]);
  });
});
