/**
 * A principal's pool of pre-provisioned task ids: ids whose TaskObjects were already
 * instantiated in the background, so that creating a task skips most of the cost of a fresh
 * Durable Object. An id in the pool is no task: it is in no list, its object stores nothing and
 * answers "not found" until a task is created in it.
 */

/**
 * Ids kept ready per principal at rest. Sequential creation needs one; a larger pool absorbs small
 * bursts. A busy principal's pool grows past it with its rate (refill-plan.ts, up to POOL_MAX).
 */
export const POOL_SIZE = 8;
/**
 * Ids older than this are discarded unused (whatever storage the runtime kept for them deleted).
 * The benefit lasts while the object stays in memory (about 10 s idle locally, longer deployed);
 * an older id is still valid, just no faster than a fresh one.
 */
export const POOL_MAX_AGE_MS = 15 * 60_000;
/**
 * Ids beyond the newest POOL_SIZE (what a burst left behind) older than this are discarded too: an
 * idle principal keeps POOL_SIZE objects, as before, and a burst's surplus goes within a minute.
 * Locally an object leaves memory after about 10 s idle, so an older surplus id saves little anyway.
 */
export const SURPLUS_MAX_AGE_MS = 60_000;
/** How long after a creation its refill starts: past the creation's own round trips. */
export const REFILL_DELAY_MS = 25;

/** The ids past the newest `?` (POOL_SIZE): the ones `take` would hand out last. */
const SURPLUS = "SELECT task_id FROM pool ORDER BY prepared_at DESC, task_id DESC LIMIT -1 OFFSET ?";

export class TaskIdPool {
  constructor(private readonly sql: SqlStorage) {
    sql.exec("CREATE TABLE IF NOT EXISTS pool (task_id TEXT PRIMARY KEY, prepared_at INTEGER NOT NULL)");
  }

  /** Removes and returns the most recently prepared id (the one most likely still in memory), if any is fresh. */
  take(now: number): string | undefined {
    return this.takeUpTo(1, now)[0];
  }

  /** Removes and returns up to `count` fresh ids, the most recently prepared first. */
  takeUpTo(count: number, now: number): string[] {
    if (count <= 0) return [];
    return (
      this.sql
        .exec<{ task_id: string; prepared_at: number }>(
          "DELETE FROM pool WHERE task_id IN (SELECT task_id FROM pool WHERE prepared_at > ? ORDER BY prepared_at DESC LIMIT ?) RETURNING task_id, prepared_at",
          now - POOL_MAX_AGE_MS,
          count,
        )
        .toArray()
        // RETURNING follows no order: the newest first.
        .sort((a, b) => b.prepared_at - a.prepared_at)
        .map((row) => row.task_id)
    );
  }

  add(taskId: string, now: number): void {
    this.sql.exec("INSERT INTO pool (task_id, prepared_at) VALUES (?, ?) ON CONFLICT(task_id) DO NOTHING", taskId, now);
  }

  size(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM pool").one().n;
  }

  /**
   * Removes and returns the ids too old to hand out, and a burst's surplus past SURPLUS_MAX_AGE_MS;
   * the caller discards their objects.
   */
  takeStale(now: number): string[] {
    const old = this.sql
      .exec<{ task_id: string }>("DELETE FROM pool WHERE prepared_at <= ? RETURNING task_id", now - POOL_MAX_AGE_MS)
      .toArray();
    const surplus = this.sql
      .exec<{ task_id: string }>(
        `DELETE FROM pool WHERE prepared_at <= ? AND task_id IN (${SURPLUS}) RETURNING task_id`,
        now - SURPLUS_MAX_AGE_MS,
        POOL_SIZE,
      )
      .toArray();
    return [...old, ...surplus].map((row) => row.task_id);
  }

  /** When the next id goes stale (the oldest, or the oldest surplus one), for the cleanup alarm; undefined for an empty pool. */
  nextExpiry(): number | undefined {
    const oldest = this.sql.exec<{ at: number | null }>("SELECT MIN(prepared_at) AS at FROM pool").one().at;
    if (oldest === null) return undefined;
    const surplus = this.sql
      .exec<{ at: number | null }>(`SELECT MIN(prepared_at) AS at FROM pool WHERE task_id IN (${SURPLUS})`, POOL_SIZE)
      .one().at;
    return Math.min(
      oldest + POOL_MAX_AGE_MS,
      surplus === null ? Number.POSITIVE_INFINITY : surplus + SURPLUS_MAX_AGE_MS,
    );
  }
}
