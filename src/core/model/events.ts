/**
 * A task's events, one typed shape per `type`: what its log stores and its readers receive.
 * A new kind of event is one more entry in TaskEventData (and in KNOWN, which the compiler keeps complete).
 */
import type { InputAction } from "./questions";
import type { Progress, TaskOutcome } from "./record";
import type { JsonObject } from "../../json";
import type { PartialPiece } from "./partial-types";
import type { TaskView } from "./view";

export type LogLevel = "debug" | "info" | "notice" | "warning" | "error";

export interface TaskEventData {
  /** The task's view, on every status change. */
  status: TaskView;
  progress: Progress;
  /** A `job.step` finished for the first time. */
  step: { name: string };
  log: { level: LogLevel; message: string };
  /** The job asked a question (`job.elicit`) and the task now waits for its answer. */
  question: { key: string; message: string; requestedSchema: JsonObject };
  /** A question was answered (the answer's content is stored with the steps, not logged). */
  answer: { key: string; action: InputAction };
  /** A piece of partial output the job published (partial.ts), numbered from 1. */
  partial: PartialPiece;
  /** The final tool result, or `{ error }` when the call ended with a JSON-RPC error: the log's last event. */
  result: JsonObject;
}

export type TaskEventType = keyof TaskEventData;
export type NewTaskEvent = { [K in TaskEventType]: { type: K; data: TaskEventData[K] } }[TaskEventType];
export type TaskEvent = NewTaskEvent & { seq: number; at: number };

const KNOWN: { readonly [K in TaskEventType]: true } = {
  status: true,
  progress: true,
  step: true,
  log: true,
  question: true,
  answer: true,
  partial: true,
  result: true,
};

export const isTaskEventType = (type: string): type is TaskEventType => Object.hasOwn(KNOWN, type);

/**
 * An event read back from the task's own storage or feed socket. Only this code writes either, from
 * typed events, so the data is trusted once the type is known; an unknown type is skipped.
 */
export function taskEventFromJson(seq: number, type: string, at: number, json: string): TaskEvent | undefined {
  if (!isTaskEventType(type)) return undefined;
  return { seq, type, at, data: JSON.parse(json) };
}

export function resultEventData(outcome: TaskOutcome): JsonObject {
  return outcome.kind === "result" ? outcome.result : { error: outcome.error };
}

/** The outcome a `result` event records (the inverse of resultEventData). */
export function outcomeOf(data: JsonObject): TaskOutcome {
  const error = data["error"];
  if (typeof error === "object" && error !== null && !("content" in data)) {
    const code = "code" in error && typeof error.code === "number" ? error.code : -32603;
    const message = "message" in error && typeof error.message === "string" ? error.message : "The task failed.";
    return { kind: "error", error: { code, message } };
  }
  return { kind: "result", result: data };
}
