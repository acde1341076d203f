/**
 * One meaning per result, whichever part a client hands its model (docs/model-facing.md): Claude
 * Code passes `JSON.stringify(structuredContent)` and drops the text, others pass the text. So the
 * structured object carries the sentences (`summary`, and `next` while a task runs), the text says
 * the same, and data only a view needs (the task card) rides in `_meta`. Every tool that returns
 * `structuredContent` declares the `outputSchema` built here, and every result conforms to it,
 * the still-running fallback included (the SDK v1 Client rejects a result that does not).
 */
import * as z from "zod";
import type { TaskSnapshot } from "../core";
import type { JsonObject } from "../json";
import { jsonInputSchema } from "./input-schema";
import type { Sentences } from "./task-sentences";
import { taskStatusContent } from "./task-status-data";

/** `_meta` key of the whole task as data (times, ttl, poll interval, questions, result): the card reads it. */
export const TASK_DATA_META = "mcp-task-worker/task";

const STATUSES = ["working", "input_required", "completed", "failed", "cancelled"] as const;

/** What the model needs of a task besides the sentences: which task, its state, how far it got. */
const TaskReportSchema = z.object({
  summary: z
    .string()
    .describe("What happened, in a sentence to relay; while the call still runs as a task, says it is not the result."),
  next: z
    .string()
    .optional()
    .describe("While a task is unfinished: what to do next and when (which tool to call, with which taskId)."),
  taskId: z.string().describe("The task the call runs as."),
  tool: z.string().describe("The tool the task runs."),
  status: z.enum(STATUSES),
  progress: z.number().optional().describe("Work done so far, in the tool's own unit."),
  total: z.number().optional(),
  message: z.string().optional().describe("The latest progress message."),
});

/** The still-running fallback's structured object, which a task-capable tool's result may be instead of its own. */
export function taskReport(snapshot: TaskSnapshot, sentences: Sentences): JsonObject {
  const { task, progress } = snapshot;
  const message = progress?.message ?? task.statusMessage;
  return {
    summary: sentences.summary,
    ...(sentences.next !== undefined && { next: sentences.next }),
    taskId: task.taskId,
    tool: snapshot.tool,
    status: task.status,
    progress: progress?.progress ?? 0,
    ...(progress?.total !== undefined && { total: progress.total }),
    ...(message !== undefined && { message }),
  };
}

/** `_meta` with the task as data for views, beside what else the result's `_meta` holds. */
export const viewMeta = (snapshot: TaskSnapshot, meta: JsonObject): JsonObject => ({
  ...meta,
  [TASK_DATA_META]: taskStatusContent(snapshot),
});

const object = (schema: z.ZodObject): { properties: JsonObject; required: string[] } => {
  const json = jsonInputSchema(schema);
  const properties =
    typeof json["properties"] === "object" && json["properties"] !== null ? { ...json["properties"] } : {};
  const required = Array.isArray(json["required"])
    ? json["required"].filter((key): key is string => typeof key === "string")
    : [];
  return { properties, required };
};

/**
 * A tool's `outputSchema`: `summary` always; then either its own fields (it finished) or the task
 * link's (`next`, `taskId`, `status`: the call outlasted the inline wait). Quick tools never link.
 */
export function toolOutputSchema(own: z.ZodObject | undefined, mayLink: boolean): JsonObject {
  const ownJson = own ? object(own) : { properties: {}, required: [] };
  const link = object(TaskReportSchema);
  const properties = {
    ...(mayLink ? link.properties : { summary: link.properties["summary"] }),
    ...ownJson.properties,
  };
  const branches =
    ownJson.required.length > 0 && mayLink
      ? { anyOf: [{ required: ownJson.required }, { required: ["next", "taskId", "status"] }] }
      : {};
  const required = mayLink ? ["summary"] : ["summary", ...ownJson.required];
  return { type: "object", properties, required, ...branches };
}

/** The check-back tools' `outputSchema`: the task report, and once finished the tool's own data or error. */
export const checkBackOutputSchema = (): JsonObject =>
  jsonInputSchema(
    TaskReportSchema.extend({
      result: z
        .record(z.string(), z.unknown())
        .optional()
        .describe("Once completed: the tool's own structured result."),
      error: z
        .object({ code: z.number(), message: z.string() })
        .optional()
        .describe("Once failed with a protocol error."),
    }).loose(),
  );
