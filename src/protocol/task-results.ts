/**
 * What a task answers with, in any era: its final result (the tool's result with the task's
 * correlation id and related-task `_meta`), and the fallback a plain call gets when its task
 * outlasts the inline wait (a link to the task and how to check back).
 */
import { taskResourceUri, echoMeta, type TaskMeta, type TaskSnapshot, type TaskOutcome } from "../core";
import type { JsonObject } from "../json";
import { ProtocolError } from "./errors";
import { taskReport, viewMeta } from "./model-facing";
import { sentencesText, stillRunningSentences } from "./task-sentences";
import { withOutputSoFar } from "./partial-sentences";

/** The `_meta` key that ties a message to its task (2025-11-25 tasks; kept by the tasks extension). */
export const RELATED_TASK_META = "io.modelcontextprotocol/related-task";

export const relatedTask = (taskId: string): { [RELATED_TASK_META]: { taskId: string } } => ({
  [RELATED_TASK_META]: { taskId },
});

/** The result a finished task answers with; a task that ended with a JSON-RPC error throws it. */
export function finalResult(taskId: string, outcome: TaskOutcome, meta: TaskMeta): JsonObject {
  if (outcome.kind === "error") throw new ProtocolError(outcome.error.code, outcome.error.message);
  const result = outcome.result;
  const existing = typeof result["_meta"] === "object" && result["_meta"] !== null ? result["_meta"] : {};
  return { ...result, _meta: { ...existing, ...echoMeta(meta), ...relatedTask(taskId) } };
}

/**
 * A plain call that outlasted the inline budget (or whose question this client cannot show): the
 * sentences a model needs in the text and in `structuredContent` alike, a link to the task, and
 * the task as data for the card in `_meta` (docs/model-facing.md).
 */
export function stillRunningResult(snapshot: TaskSnapshot, baseUrl: string): JsonObject {
  const sentences = withOutputSoFar(stillRunningSentences(snapshot, baseUrl), snapshot);
  const { taskId } = snapshot.task;
  const uri = taskResourceUri(taskId);
  return {
    content: [
      { type: "text", text: sentencesText(sentences) },
      {
        type: "resource_link",
        uri,
        name: `task-${taskId}`,
        title: `Task ${taskId} (${snapshot.tool})`,
        mimeType: "application/json",
        description: `Status, progress and, once finished, the result of the running tool call (plain HTTP: GET ${baseUrl}/tasks/${taskId}).`,
      },
    ],
    structuredContent: taskReport(snapshot, sentences),
    _meta: viewMeta(snapshot, { ...relatedTask(taskId), ...echoMeta(snapshot.meta) }),
  };
}
