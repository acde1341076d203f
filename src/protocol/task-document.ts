/**
 * The task as one JSON document: what `resources/read` of a task and `GET /tasks/{id}`
 * return. The fields of `tasks/get`, plus progress and, once terminal, the result.
 */
import { isTerminal, type JsonObject } from "../core/model";
import type { TaskSnapshot } from "../core/task-object";

export const CORRELATION_ID_META = "mcp-task-worker/correlation-id";

/** `_meta` to echo on every view of the task: the client's correlation id, if it gave one. */
export function taskMeta(snapshot: Pick<TaskSnapshot, "meta">): JsonObject | undefined {
  const correlationId = snapshot.meta["correlationId"];
  return typeof correlationId === "string" ? { [CORRELATION_ID_META]: correlationId } : undefined;
}

export function taskDocument(snapshot: TaskSnapshot): JsonObject {
  const meta = taskMeta(snapshot);
  const doc: JsonObject = { ...snapshot.task, tool: snapshot.tool };
  if (snapshot.progress) doc["progress"] = snapshot.progress;
  if (isTerminal(snapshot.task.status) && snapshot.outcome) {
    if (snapshot.outcome.kind === "result") doc["result"] = snapshot.outcome.result;
    else doc["error"] = snapshot.outcome.error;
  }
  if (meta) doc["_meta"] = meta;
  return doc;
}
