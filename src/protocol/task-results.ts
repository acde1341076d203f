/**
 * What a task answers with, in any era: its final result (the tool's result with the task's
 * correlation id and related-task `_meta`), and the fallback a plain call gets when its task
 * outlasts the inline wait (a link to the task and how to check back).
 */
import { taskResourceUri } from "../core/ids";
import { echoMeta, type TaskMeta } from "../core/task-meta";
import type { TaskSnapshot } from "../core/task-rpc";
import type { JsonObject, TaskOutcome } from "../core/task-record";
import { ProtocolError } from "./errors";
import { howToAnswer } from "./input-requests";
import { taskStatusContent } from "./task-status-data";

/** The `_meta` key that ties a message to its task (2025-11-25 tasks; kept by the tasks extension). */
export const RELATED_TASK_META = "io.modelcontextprotocol/related-task";

export const relatedTask = (taskId: string): { [RELATED_TASK_META]: { taskId: string } } => ({ [RELATED_TASK_META]: { taskId } });

/** The result a finished task answers with; a task that ended with a JSON-RPC error throws it. */
export function finalResult(taskId: string, outcome: TaskOutcome, meta: TaskMeta): JsonObject {
  if (outcome.kind === "error") throw new ProtocolError(outcome.error.code, outcome.error.message);
  const result = outcome.result;
  const existing = typeof result["_meta"] === "object" && result["_meta"] !== null ? result["_meta"] : {};
  return { ...result, _meta: { ...existing, ...echoMeta(meta), ...relatedTask(taskId) } };
}

/** A plain call that outlasted the inline budget: prose and a link for the model, the task as data for the card and programs. */
export function stillRunningResult(snapshot: TaskSnapshot, baseUrl: string): JsonObject {
  const { taskId } = snapshot.task;
  const toolName = snapshot.tool;
  const uri = taskResourceUri(taskId);
  return {
    content: [
      {
        type: "text",
        text:
          `"${toolName}" is still running in the background as task ${taskId}; this is not its result. ` +
          `To check back later, read the resource ${uri} (it shows status, progress and, once finished, the result), ` +
          `or call the task_status / task_result tools with taskId "${taskId}". Plain HTTP: GET ${baseUrl}/tasks/${taskId}.` +
          (snapshot.task.status === "input_required" ? ` ${howToAnswer(snapshot, baseUrl)}` : ""),
      },
      { type: "resource_link", uri, name: `task-${taskId}`, title: `Task ${taskId} (${toolName})`, mimeType: "application/json", description: "Status, progress and result of the running tool call." },
    ],
    structuredContent: taskStatusContent(snapshot),
    _meta: { ...relatedTask(taskId), ...echoMeta(snapshot.meta) },
  };
}
