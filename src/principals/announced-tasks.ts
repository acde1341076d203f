/**
 * Tasks announced to the index before they are written: a plain call that ended in its first
 * moments answers from memory and its TaskObject writes the task just after (core/object/launch.ts),
 * yet a `tasks/list` sent right after the answer must list it. The index keeps such an announcement
 * in memory only, so the call's answer waits for no write here either, and merges it into the pages
 * it lists until the task's durable report (track or update) replaces it. Lost on eviction, which
 * the report follows within milliseconds; one whose report never comes (its object died before
 * writing, so the task does not exist) is dropped after ANNOUNCED_TTL_MS.
 */
import type { TaskEntry } from "../core";

/** One entry of the index, in the order pages list them: newest first, then by task id. */
export interface IndexRow extends TaskEntry {
  taskId: string;
  createdAt: number;
}

/** A page's position: rows strictly after it in list order. */
export interface PagePosition {
  createdAt: number;
  taskId: string;
}

export const ANNOUNCED_TTL_MS = 60_000;
/** Announcements come in milliseconds before their reports; more than this at once is a flood, not a burst. */
const MAX_ANNOUNCED = 1000;

/** Whether `a` lists before `b`. */
export function listsBefore(a: PagePosition, b: PagePosition): boolean {
  return a.createdAt > b.createdAt || (a.createdAt === b.createdAt && a.taskId > b.taskId);
}

export class AnnouncedTasks {
  private readonly entries = new Map<string, { row: IndexRow; until: number }>();

  add(row: IndexRow, now: number): void {
    this.entries.delete(row.taskId);
    this.entries.set(row.taskId, { row, until: now + ANNOUNCED_TTL_MS });
    // Oldest announcements first (insertion order): a flood evicts what its reports should have replaced long ago.
    for (const taskId of this.entries.keys()) {
      if (this.entries.size <= MAX_ANNOUNCED) break;
      this.entries.delete(taskId);
    }
  }

  /** The task's durable report arrived (or it was removed): the stored row speaks for it now. */
  remove(taskId: string): void {
    this.entries.delete(taskId);
  }

  /**
   * `rows`: the stored rows after `position` (all of them, or the first of them in list order), with
   * the announcements after `position` merged in: an announced task replaces its stored row, and
   * the others take their place in list order.
   */
  merge(rows: readonly IndexRow[], position: PagePosition | undefined, now: number): IndexRow[] {
    if (this.entries.size === 0) return [...rows];
    const live = new Map<string, IndexRow>();
    for (const [taskId, { row, until }] of this.entries) {
      if (until <= now) this.entries.delete(taskId);
      else if (position === undefined || listsBefore(position, row)) live.set(taskId, row);
    }
    const merged = rows.map((row) => {
      const announced = live.get(row.taskId);
      live.delete(row.taskId);
      return announced ?? row;
    });
    merged.push(...live.values());
    return merged.sort((a, b) => (listsBefore(a, b) ? -1 : listsBefore(b, a) ? 1 : 0));
  }
}
