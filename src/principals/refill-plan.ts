/**
 * How many prepared task objects a principal's pool should hold, and how many one refill builds,
 * from the rate creations have drained it lately (issue 54). A principal calling every few ms used
 * to meet an empty pool: it refilled one object per REFILL_DELAY_MS, about 40 a second. Pure: the
 * clock is the caller's, so the sizing is tested on a clock moved by hand.
 */
import { POOL_SIZE, REFILL_DELAY_MS } from "./task-id-pool";

/** The drain rate is the ids handed out over this window: short enough to follow a burst's start. */
export const RATE_WINDOW_MS = 1000;
/**
 * How long the pool should last at the recent rate with no refill: a refill's own build (a few ms per
 * object locally) and the next lease's grab (up to MAX_SLOTS_PER_LEASE ids at once) fit inside it.
 */
export const POOL_HORIZON_MS = 200;
/**
 * The most objects one principal's pool holds, whatever the rate: 200 creations a second fill it.
 * Past it, a burst's creations get fresh ids and build their objects on their own path, as with no pool.
 */
export const POOL_MAX = 40;
/** The most objects one refill builds at once: each is a new SQLite file on the runtime's thread locally. */
export const MAX_BATCH = 8;

/** What a refill should do now. */
export interface RefillPlan {
  /** The size the pool refills to at this rate: POOL_SIZE at rest, up to POOL_MAX. */
  target: number;
  /** At or below this many ids the pool is low: a refill starts. */
  low: number;
  /** Objects to build in this refill (0 once the pool is at its target). */
  batch: number;
}

/**
 * What one object per REFILL_DELAY_MS supplies (40 a second). Up to it a refill builds one object,
 * as before: never several new objects in a row while calls are spaced (docs/peers.md, "Tails
 * (issue 35)"). A lease's ids count at once, so a principal calling 20 times a second can read as
 * 30: this margin keeps it on one object at a time.
 */
export const ONE_AT_A_TIME_PER_SECOND = 1000 / REFILL_DELAY_MS;

/**
 * Sizes the pool for `perSecond` ids handed out a second while it holds `pooled`. A refill runs at
 * most once per REFILL_DELAY_MS; past ONE_AT_A_TIME_PER_SECOND each builds what the rate drains in
 * two of those intervals, so it gains on the drain instead of trailing it.
 */
export function planRefill(perSecond: number, pooled: number): RefillPlan {
  const rate = Number.isFinite(perSecond) && perSecond > 0 ? perSecond : 0;
  const target = Math.min(POOL_MAX, Math.max(POOL_SIZE, Math.ceil((rate * POOL_HORIZON_MS) / 1000)));
  // Half the target left: at the rate, still a POOL_HORIZON_MS / 2 of ids, room for a refill to land.
  const low = Math.floor(target / 2);
  const perRefill = rate <= ONE_AT_A_TIME_PER_SECOND ? 1 : Math.ceil((rate * 2 * REFILL_DELAY_MS) / 1000);
  const batch = Math.max(0, Math.min(target - pooled, perRefill, MAX_BATCH));
  return { target, low, batch };
}

/**
 * Ids handed out per second over the last RATE_WINDOW_MS, counted in tenths of the window so it
 * holds at most ten numbers whatever the rate.
 */
export class DrainRate {
  private static readonly BUCKETS = 10;
  private readonly counts = new Map<number, number>();

  record(count: number, now: number): void {
    if (count <= 0) return;
    const bucket = this.bucketOf(now);
    this.counts.set(bucket, (this.counts.get(bucket) ?? 0) + count);
    this.prune(bucket);
  }

  perSecond(now: number): number {
    const bucket = this.bucketOf(now);
    this.prune(bucket);
    let total = 0;
    for (const count of this.counts.values()) total += count;
    return (total * 1000) / RATE_WINDOW_MS;
  }

  private bucketOf(now: number): number {
    return Math.floor(now / (RATE_WINDOW_MS / DrainRate.BUCKETS));
  }

  /** Buckets older than the window (or from a clock that went back) no longer count. */
  private prune(current: number): void {
    for (const bucket of this.counts.keys())
      if (bucket <= current - DrainRate.BUCKETS || bucket > current) this.counts.delete(bucket);
  }
}
