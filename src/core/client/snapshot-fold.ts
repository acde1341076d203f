/**
 * Folds a task's events into its snapshot, so a reader that follows the task's feed knows the
 * task's whole current state after each event without asking the TaskObject again: what a
 * subscription needs to send "the task as `tasks/get` would answer now" on every change.
 */
import { outcomeOf, type TaskEvent } from "../model/events";
import { withPiece } from "../model/partial";
import type { TaskSnapshot } from "./task-rpc";

/** The snapshot after `event`; the same object when the event changes nothing a view shows (steps, logs). */
export function applyTaskEvent(snapshot: TaskSnapshot, event: TaskEvent): TaskSnapshot {
  switch (event.type) {
    case "status": {
      // The questions hold only while the task waits (a commit's question events come before its status).
      const { inputRequests, ...rest } = snapshot;
      return {
        ...rest,
        task: event.data,
        lastSeq: event.seq,
        ...(event.data.status === "input_required" && inputRequests && { inputRequests }),
      };
    }
    case "question": {
      const { key, message, requestedSchema } = event.data;
      return {
        ...snapshot,
        inputRequests: { ...snapshot.inputRequests, [key]: { message, requestedSchema } },
        lastSeq: event.seq,
      };
    }
    case "answer": {
      const { [event.data.key]: _answered, ...pending } = snapshot.inputRequests ?? {};
      const { inputRequests: _old, ...rest } = snapshot;
      return { ...rest, ...(Object.keys(pending).length > 0 && { inputRequests: pending }), lastSeq: event.seq };
    }
    case "progress": {
      // The end estimate came from the object's pace, which this event changed: none beats a stale one.
      const { estimatedEndAt: _stale, ...rest } = snapshot;
      return { ...rest, progress: event.data, lastSeq: event.seq };
    }
    case "partial":
      return { ...snapshot, partial: withPiece(snapshot.partial, event.data), lastSeq: event.seq };
    case "result":
      return { ...snapshot, outcome: outcomeOf(event.data), lastSeq: event.seq };
    case "step":
    case "log":
      return snapshot;
  }
}
