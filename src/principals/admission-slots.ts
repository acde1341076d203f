/**
 * The index's side of admission slots (src/core/client/slot-lease.ts is the isolate's): ids of tasks that
 * may be created without asking the index, leased to an isolate a few at a time. A slot counts
 * against the principal's cap of unfinished tasks from the moment it is leased until its task
 * reports itself (PrincipalObject.track) or the slot is taken back unused, so the cap is never
 * exceeded. Near the cap nothing is leased: every creation then asks the index itself, and the
 * slots still out run out within a lease's length. The lease is the one rate-limit tokens use too
 * (src/leases/).
 */
import { grantSize } from "../leases/lease-owner";

/** How long an isolate may spend a slot after its lease; the index takes unspent ones back SLOT_GRACE_MS later. */
export const SLOT_LEASE_MS = 10_000;
export const SLOT_GRACE_MS = 5_000;

/**
 * How many slots to lease: what was asked, at most a quarter of the room left under the cap (so
 * isolates together never hold much of it, and near it every creation is admitted one by one).
 */
export function slotAllowance(want: number, used: number, maxActive: number): number {
  return grantSize(want, (maxActive - used) / 4);
}

export class AdmissionSlots {
  constructor(private readonly sql: SqlStorage) {
    sql.exec("CREATE TABLE IF NOT EXISTS slots (task_id TEXT PRIMARY KEY, until INTEGER NOT NULL)");
  }

  count(): number {
    return this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM slots").one().n;
  }

  add(ids: readonly string[], until: number): void {
    for (const id of ids)
      this.sql.exec("INSERT INTO slots (task_id, until) VALUES (?, ?) ON CONFLICT(task_id) DO NOTHING", id, until);
  }

  /** The slot's task reported itself, or the slot came back unspent: it no longer counts. True if it was a slot. */
  remove(taskId: string): boolean {
    return this.sql.exec("DELETE FROM slots WHERE task_id = ?", taskId).rowsWritten > 0;
  }

  /** Slots whose lease ended SLOT_GRACE_MS ago or more: unspent, or spent by a task that never reported itself. */
  overdue(now: number): string[] {
    return this.sql
      .exec<{ task_id: string }>("SELECT task_id FROM slots WHERE until <= ?", now - SLOT_GRACE_MS)
      .toArray()
      .map((row) => row.task_id);
  }

  /** When the next slot becomes overdue, for the index's alarm. */
  nextOverdue(): number | undefined {
    const until = this.sql.exec<{ at: number | null }>("SELECT MIN(until) AS at FROM slots").one().at;
    return until === null ? undefined : until + SLOT_GRACE_MS;
  }
}
