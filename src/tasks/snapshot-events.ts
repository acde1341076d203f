/**
 * Folds a task's events into its snapshot, so a reader that follows the task's feed knows the
 * task's whole current state after each event without asking the TaskObject again: what a
 * subscription needs to send "the task as `tasks/get` would answer now" on every change.
 */
import type { FeedEvent } from "./feed-frames";
import type { JsonObject, Progress, TaskOutcome, TaskStatus, TaskView } from "./model";
import type { TaskSnapshot } from "./task-object";

const STATUSES: readonly TaskStatus[] = ["working", "input_required", "completed", "failed", "cancelled"];

function taskView(data: JsonObject): TaskView | undefined {
  const { taskId, status, statusMessage, createdAt, lastUpdatedAt, ttl, pollInterval } = data;
  const known = STATUSES.find((candidate) => candidate === status);
  if (typeof taskId !== "string" || !known || typeof createdAt !== "string" || typeof lastUpdatedAt !== "string" || typeof ttl !== "number" || typeof pollInterval !== "number") return undefined;
  return { taskId, status: known, ...(typeof statusMessage === "string" && { statusMessage }), createdAt, lastUpdatedAt, ttl, pollInterval };
}

function progress(data: JsonObject): Progress | undefined {
  if (typeof data["progress"] !== "number") return undefined;
  return {
    progress: data["progress"],
    ...(typeof data["total"] === "number" && { total: data["total"] }),
    ...(typeof data["message"] === "string" && { message: data["message"] }),
  };
}

/** The outcome a `result` event records: the tool's result, or `{ error }` for a JSON-RPC error. */
export function outcomeOf(data: JsonObject): TaskOutcome {
  const error = data["error"];
  if (typeof error === "object" && error !== null && !("content" in data)) {
    const code = "code" in error && typeof error.code === "number" ? error.code : -32603;
    const message = "message" in error && typeof error.message === "string" ? error.message : "The task failed.";
    return { kind: "error", error: { code, message } };
  }
  return { kind: "result", result: data };
}

/** The snapshot after `event`; the same object when the event changes nothing a view shows (steps, logs). */
export function applyTaskEvent(snapshot: TaskSnapshot, event: FeedEvent): TaskSnapshot {
  switch (event.type) {
    case "status": {
      const task = taskView(event.data);
      return task ? { ...snapshot, task, lastSeq: event.seq } : snapshot;
    }
    case "progress": {
      const next = progress(event.data);
      return next ? { ...snapshot, progress: next, lastSeq: event.seq } : snapshot;
    }
    case "result":
      return { ...snapshot, outcome: outcomeOf(event.data), lastSeq: event.seq };
    default:
      return snapshot;
  }
}
