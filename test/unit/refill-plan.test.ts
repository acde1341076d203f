// The id pool's sizing (issue 54), on a clock moved by hand: target, low mark and batch per rate, the
// rate meter's window, and a simulated principal draining the pool at each bench rate.
import { describe, it } from "vitest";
import {
  DrainRate,
  MAX_BATCH,
  ONE_AT_A_TIME_PER_SECOND,
  POOL_MAX,
  planRefill,
  RATE_WINDOW_MS,
} from "../../src/principals/refill-plan";
import { POOL_SIZE, REFILL_DELAY_MS } from "../../src/principals/task-id-pool";

describe("planRefill", () => {
  it("at rest keeps POOL_SIZE and builds one object per refill", ({ expect }) => {
    expect(planRefill(0, 0)).toEqual({ target: POOL_SIZE, low: POOL_SIZE / 2, batch: 1 });
    expect(planRefill(5, 3)).toEqual({ target: POOL_SIZE, low: POOL_SIZE / 2, batch: 1 });
  });

  it("grows the target with the rate, to POOL_MAX and never past it", ({ expect }) => {
    expect(planRefill(100, 0).target).toBe(20);
    expect(planRefill(200, 0).target).toBe(POOL_MAX);
    expect(planRefill(100_000, 0).target).toBe(POOL_MAX);
  });

  it("builds one object per refill up to what that supplies (ONE_AT_A_TIME_PER_SECOND)", ({ expect }) => {
    expect(ONE_AT_A_TIME_PER_SECOND).toBe(1000 / REFILL_DELAY_MS);
    for (const rate of [1, 20, 32, ONE_AT_A_TIME_PER_SECOND]) expect(planRefill(rate, 0).batch).toBe(1);
    expect(planRefill(ONE_AT_A_TIME_PER_SECOND + 1, 0).batch).toBeGreaterThan(1);
  });

  it("past it, builds what two refill intervals drain, at most MAX_BATCH, never past the target", ({ expect }) => {
    expect(planRefill(50, 0).batch).toBe(3);
    expect(planRefill(100, 0).batch).toBe(5);
    expect(planRefill(1000, 0).batch).toBe(MAX_BATCH);
    expect(planRefill(200, POOL_MAX - 2).batch).toBe(2);
    expect(planRefill(200, POOL_MAX).batch).toBe(0);
    expect(planRefill(0, POOL_MAX).batch).toBe(0);
  });

  it("reads a rate that is not a positive number as rest", ({ expect }) => {
    for (const rate of [Number.NaN, -5, Number.POSITIVE_INFINITY]) expect(planRefill(rate, 0).target).toBe(POOL_SIZE);
  });
});

describe("DrainRate", () => {
  it("counts what was handed out over the last RATE_WINDOW_MS", ({ expect }) => {
    const rate = new DrainRate();
    const start = 1_000_000;
    for (let i = 0; i < 50; i++) rate.record(1, start + i * 10);
    expect(rate.perSecond(start + 499)).toBe(50);
    rate.record(16, start + 500);
    expect(rate.perSecond(start + 500)).toBe(66);
    // A window later, nothing recorded since: at rest again.
    expect(rate.perSecond(start + 500 + RATE_WINDOW_MS)).toBe(0);
  });

  it("ignores what a clock that went back recorded ahead", ({ expect }) => {
    const rate = new DrainRate();
    rate.record(10, 5_000);
    expect(rate.perSecond(4_000)).toBe(0);
  });
});

/**
 * A principal handing out one id each 1000 / perSecond ms, its pool refilled as Provisioning does:
 * a refill starts REFILL_DELAY_MS after a take leaves the pool at its low mark, its batch is pooled
 * `buildMs` later, and the next follows REFILL_DELAY_MS after that while short of the target.
 * Returns how many takes found the pool empty, and the most it held.
 */
function simulate(
  perSecond: number,
  seconds: number,
  buildMs: number,
): { misses: number; takes: number; most: number } {
  const rate = new DrainRate();
  const gap = 1000 / perSecond;
  let pooled = 0;
  let misses = 0;
  let most = 0;
  let refillAt: number | undefined;
  let landing: { at: number; count: number } | undefined;
  const takes = Math.floor((seconds * 1000) / gap);
  for (let tick = 0; tick <= seconds * 1000; tick++) {
    if (landing && landing.at <= tick) {
      pooled += landing.count;
      most = Math.max(most, pooled);
      landing = undefined;
      if (planRefill(rate.perSecond(tick), pooled).batch > 0) refillAt = tick + REFILL_DELAY_MS;
    }
    if (refillAt !== undefined && refillAt <= tick && !landing) {
      refillAt = undefined;
      const { batch } = planRefill(rate.perSecond(tick), pooled);
      if (batch > 0) landing = { at: tick + buildMs, count: batch };
    }
    const due = Math.floor(tick / gap) > Math.floor((tick - 1) / gap) || tick === 0;
    if (!due) continue;
    if (pooled > 0) pooled -= 1;
    else misses += 1;
    rate.record(1, tick);
    if (pooled <= planRefill(rate.perSecond(tick), pooled).low && refillAt === undefined && !landing)
      refillAt = tick + REFILL_DELAY_MS;
  }
  return { misses, takes, most };
}

describe("a principal draining its pool at the bench's rates", () => {
  for (const perSecond of [20, 50, 100, 200]) {
    it(`at ${perSecond}/s, after the first second, every take finds a pooled id; the pool stays within POOL_MAX`, ({
      expect,
    }) => {
      // The first second is the cold start: the rate meter and the pool both start from nothing.
      const cold = simulate(perSecond, 1, 5);
      const run = simulate(perSecond, 5, 5);
      expect(run.misses).toBe(cold.misses);
      expect(run.most).toBeLessThanOrEqual(POOL_MAX);
    });
  }
});
