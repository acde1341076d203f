/**
 * A 2025 answer of an adopted tool that declared no `outputSchema`, as its author would have
 * answered: no `structuredContent` that only repeats the text. The engine stores each result with
 * its words in `structuredContent.summary` (docs/model-facing.md, for the template's tools, which
 * declare an output schema); here that copy is dropped, and of the still-running answer's task
 * report the sentences (`summary`, `next`: its text) are, while the task as data stays.
 */
import { isRecord, type JsonObject } from "../json";

/** The text blocks' text, joined as the engine joined it into `summary` (jobs/context.ts textOf). */
const textOf = (result: JsonObject): string => {
  const content = result["content"];
  if (!Array.isArray(content)) return "";
  return content
    .flatMap((block) =>
      isRecord(block) && block["type"] === "text" && typeof block["text"] === "string" ? [block["text"]] : [],
    )
    .join("\n");
};

/** The inline or finished result: the summary goes when it is the text; an empty object goes with it. */
export function withoutRepeatedText(result: JsonObject): JsonObject {
  const structured = result["structuredContent"];
  if (!isRecord(structured)) return result;
  if (structured["summary"] !== textOf(result)) return result;
  const { summary: _text, ...own } = structured;
  const { structuredContent: _copy, ...rest } = result;
  return Object.keys(own).length > 0 ? { ...rest, structuredContent: own } : rest;
}

/** The still-running answer: the task as data (taskId, status, progress) without its sentences. */
export function withoutSentences(result: JsonObject): JsonObject {
  const structured = result["structuredContent"];
  if (!isRecord(structured)) return result;
  const { summary: _summary, next: _next, ...task } = structured;
  return { ...result, structuredContent: task };
}
