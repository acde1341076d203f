/** What a 2026-07-28 `tools/call` answers once it has an answer: the task's result, or the fallback link. */
import type { TaskSnapshot, TaskOutcome } from "../core";
import { isRecord, type JsonObject } from "../json";
import { ProtocolError } from "../protocol/errors";
import { RELATED_TASK_META, stillRunningResult } from "../protocol/task-results";
import { inlinedResult } from "./task-wire";

/** 2025 `related-task` `_meta` has no meaning in this era; the correlation id stays. */
export function withoutRelatedTask(result: JsonObject): JsonObject {
  const meta = result["_meta"];
  if (!isRecord(meta) || !(RELATED_TASK_META in meta)) return result;
  return { ...result, _meta: Object.fromEntries(Object.entries(meta).filter(([key]) => key !== RELATED_TASK_META)) };
}

/** What the call answers once its task ended: the tool's result, or the JSON-RPC error the task ended with. */
export function callResult(snapshot: TaskSnapshot, outcome: TaskOutcome): JsonObject {
  if (outcome.kind === "error") throw new ProtocolError(outcome.error.code, outcome.error.message);
  return { ...inlinedResult(snapshot, outcome.result) };
}

/** The still-running fallback: a link to the task, how to check back (and answer), the task as data. */
export const stillRunningFallback = (snapshot: TaskSnapshot, baseUrl: string): JsonObject =>
  withoutRelatedTask(stillRunningResult(snapshot, baseUrl));
