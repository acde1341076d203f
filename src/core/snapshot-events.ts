/**
 * Folds a task's events into its snapshot, so a reader that follows the task's feed knows the
 * task's whole current state after each event without asking the TaskObject again: what a
 * subscription needs to send "the task as `tasks/get` would answer now" on every change.
 */
import { outcomeOf, type TaskEvent } from "./task-events";
import type { TaskSnapshot } from "./task-object";

/** The snapshot after `event`; the same object when the event changes nothing a view shows (steps, logs). */
export function applyTaskEvent(snapshot: TaskSnapshot, event: TaskEvent): TaskSnapshot {
  switch (event.type) {
    case "status":
      return { ...snapshot, task: event.data, lastSeq: event.seq };
    case "progress":
      return { ...snapshot, progress: event.data, lastSeq: event.seq };
    case "result":
      return { ...snapshot, outcome: outcomeOf(event.data), lastSeq: event.seq };
    case "step":
    case "log":
      return snapshot;
  }
}
