/**
 * What the check-back tools answer (check-back-tools.ts): the same sentences in the text and in
 * `structuredContent`, the task as data for views in `_meta` (docs/model-facing.md); a finished
 * task answers in the tool's own words.
 */
import { echoMeta, type AnswerOutcome, type TaskSnapshot } from "../core";
import { isRecord, type JsonObject } from "../json";
import { ProtocolError } from "./errors";
import { taskReport, viewMeta } from "./model-facing";
import { finalResult, relatedTask } from "./task-results";
import { sentencesText, statusSentences, type Sentences } from "./task-sentences";

export const textResult = (text: string, extra: JsonObject = {}): JsonObject => ({
  content: [{ type: "text", text }],
  ...extra,
});
export const notFound = (taskId: string): JsonObject =>
  textResult(
    `No task "${taskId.slice(0, 64)}" was found. Check the taskId (32 hex characters from the task:// link); tasks are deleted once their ttl has passed.`,
    { isError: true },
  );

export function metaFor(snapshot: TaskSnapshot): JsonObject {
  return { ...echoMeta(snapshot.meta), ...relatedTask(snapshot.task.taskId) };
}

/** The same sentences in the text and in the structured report; the task as data for views in `_meta`. */
export const statusResult = (sentences: Sentences, snapshot: TaskSnapshot): JsonObject =>
  textResult(sentencesText(sentences), {
    structuredContent: taskReport(snapshot, sentences),
    _meta: viewMeta(snapshot, metaFor(snapshot)),
  });

/**
 * A finished task: the tool's own words (its text, and its summary as ours) and its own data as
 * `result`; a task that ended with a protocol error reads as a failed tool result.
 */
export function resultOf(snapshot: TaskSnapshot): JsonObject {
  const { taskId } = snapshot.task;
  if (!snapshot.outcome) return statusResult(statusSentences(snapshot), snapshot);
  try {
    const final = finalResult(taskId, snapshot.outcome, snapshot.meta);
    const { summary, ...own } = isRecord(final["structuredContent"]) ? final["structuredContent"] : {};
    const words = typeof summary === "string" ? summary : textOfResult(final) || statusSentences(snapshot).summary;
    const report = { ...taskReport(snapshot, { summary: words }), ...(Object.keys(own).length > 0 && { result: own }) };
    return {
      ...final,
      structuredContent: report,
      _meta: viewMeta(snapshot, isRecord(final["_meta"]) ? final["_meta"] : {}),
    };
  } catch (error) {
    // A task that ended with a protocol error reads as a failed tool result. Anything else is ours,
    // not the task's: it takes the handler's error path, never the model's text.
    if (!(error instanceof ProtocolError)) throw error;
    const summary = `Task ${taskId} ("${snapshot.tool}") failed: ${error.message}`;
    const { outcome } = snapshot;
    return textResult(summary, {
      isError: true,
      structuredContent: {
        ...taskReport(snapshot, { summary }),
        ...(outcome.kind === "error" && { error: outcome.error }),
      },
      _meta: viewMeta(snapshot, metaFor(snapshot)),
    });
  }
}

const textOfResult = (result: JsonObject): string =>
  (Array.isArray(result["content"]) ? result["content"] : [])
    .flatMap((block: unknown) =>
      isRecord(block) && block["type"] === "text" && typeof block["text"] === "string" ? [block["text"]] : [],
    )
    .join("\n");

export const refusal = (summary: string, snapshot: TaskSnapshot, next?: string): JsonObject => ({
  ...statusResult({ summary, ...(next !== undefined && { next }) }, snapshot),
  isError: true,
});

/** What became of a task_input call, for the model (and the card, which shows a refusal's text). */
export function answerReport(taskId: string, outcome: AnswerOutcome, keys: string[]): JsonObject {
  if (!outcome.ok && outcome.reason === "not_found") return notFound(taskId);
  if (!outcome.ok && outcome.reason === "terminal") {
    return refusal(
      `Task ${taskId} is already ${outcome.snapshot.task.status}; it no longer takes answers.`,
      outcome.snapshot,
      `Call task_result with taskId "${taskId}" to get its result.`,
    );
  }
  if (!outcome.ok) {
    return refusal(
      `The answer to "${outcome.key}" was not passed on: ${outcome.message}. Nothing was taken; the task still waits.`,
      outcome.snapshot,
      "Ask the person again and call task_input with a corrected answer.",
    );
  }
  if (outcome.accepted.length === 0) {
    const pending = Object.keys(outcome.snapshot.inputRequests ?? {});
    const summary = `No question named ${keys.map((k) => `"${k.slice(0, 64)}"`).join(", ") || "(none given)"} is waiting for an answer (never asked, or already answered). ${pending.length > 0 ? `It waits on: ${pending.map((k) => `"${k}"`).join(", ")}.` : "It waits on no question."}`;
    return refusal(summary, outcome.snapshot);
  }
  const now = statusSentences(outcome.snapshot);
  return statusResult(
    {
      summary: `Passed on the answer to ${outcome.accepted.map((k) => `"${k}"`).join(", ")}; the task goes on. ${now.summary}`,
      ...(now.next !== undefined && { next: now.next }),
    },
    outcome.snapshot,
  );
}
