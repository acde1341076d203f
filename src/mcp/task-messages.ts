/**
 * How task events become MCP 2025-11-25 messages: a pure mapping, shared by live
 * streams and by resumption, so a replay sends exactly what the live stream sent.
 */
import { RELATED_TASK_META_KEY, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { ProtocolError } from "./errors";
import { taskMeta } from "../tasks/document";
import { outcomeOf } from "../tasks/snapshot-events";
import type { JsonObject, TaskEvent, TaskOutcome, TaskView } from "../tasks/model";
import type { TaskSnapshot } from "../tasks/task-object";

export const relatedTask = (taskId: string): JsonObject => ({ [RELATED_TASK_META_KEY]: { taskId } });

/** The MCP `Task` object, with the correlation id echoed in `_meta`. */
export function wireTask(view: TaskView, snapshot: Pick<TaskSnapshot, "meta">): JsonObject {
  const meta = taskMeta(snapshot);
  return { ...view, ...(meta && { _meta: meta }) };
}

/** The result `tasks/result` returns (or the error it throws) for a terminal task. */
export function finalResult(taskId: string, outcome: TaskOutcome, snapshot: Pick<TaskSnapshot, "meta">): JsonObject {
  if (outcome.kind === "error") throw new ProtocolError(outcome.error.code, outcome.error.message);
  const result = outcome.result;
  const existing = typeof result["_meta"] === "object" && result["_meta"] !== null ? (result["_meta"] as JsonObject) : {};
  return { ...result, _meta: { ...existing, ...taskMeta(snapshot), ...relatedTask(taskId) } };
}

/** The outcome a `result` event records (the fold lives with the core's other event readers). */
export const outcomeFromResultEvent = outcomeOf;

export interface StreamTarget {
  taskId: string;
  requestId: RequestId;
  progressToken?: string | number;
  meta: JsonObject;
}

/**
 * The message a task event becomes on a response stream, or undefined for events
 * that stream does not carry. `result` becomes the final response (or error).
 */
export function messageForEvent(event: TaskEvent, target: StreamTarget): JSONRPCMessage | undefined {
  switch (event.type) {
    case "progress":
      if (target.progressToken === undefined) return undefined;
      return {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: target.progressToken, ...(event.data as { progress: number }), _meta: relatedTask(target.taskId) },
      };
    case "status":
      return { jsonrpc: "2.0", method: "notifications/tasks/status", params: wireTask(event.data as unknown as TaskView, target) };
    case "result": {
      const outcome = outcomeFromResultEvent(event.data);
      if (outcome.kind === "error") return { jsonrpc: "2.0", id: target.requestId, error: outcome.error };
      return { jsonrpc: "2.0", id: target.requestId, result: finalResult(target.taskId, outcome, target) };
    }
    default:
      return undefined;
  }
}
