/**
 * Where a reader of an event log starts: after its cursor, or at "now" (a null cursor), moved up to
 * now − maxAgeMs when it asks for no older events. A cursor behind what the log still holds (pruned
 * past its retention) or from another life of the log is a gap: `truncated`, and reading goes on
 * from the oldest position still held (or from now, for another life's cursor).
 */
import type { Position } from "./cursor";
import type { OccurrenceLog } from "./occurrence-log";

export interface Start {
  from: number;
  truncated: boolean;
}

export function startPosition(
  log: OccurrenceLog,
  after: Position | null,
  maxAgeMs: number | undefined,
  now: number,
): Start {
  const byAge = maxAgeMs === undefined ? undefined : log.positionBefore(now - maxAgeMs);
  if (after === null) return { from: byAge ?? log.lastSeq(), truncated: false };
  if (after.epoch !== log.epoch) return { from: log.lastSeq(), truncated: true };
  const last = log.lastSeq();
  // A position past the end cannot be ours: read from the end, as for "now".
  let from = Math.min(after.seq, last);
  const pruned = log.pruned();
  const truncated = from < pruned;
  if (truncated) from = pruned;
  if (byAge !== undefined) from = Math.max(from, byAge);
  return { from, truncated };
}
