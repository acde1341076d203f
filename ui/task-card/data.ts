/**
 * What the card reads from tool results, parsed at the edge: the task as data
 * (`_meta["mcp-task-worker/task"]` of the still-running fallback and the check-back tools) and the
 * activity `task_activity` adds. Anything else is treated as a plain tool result.
 */
import * as z from "zod/mini";

// The host's CSP for the card has no 'unsafe-eval': skip zod's `new Function` probe, which a strict CSP reports.
z.config({ jitless: true });

export const TERMINAL = ["completed", "failed", "cancelled"] as const;
export const StatusSchema = z.enum(["working", "input_required", ...TERMINAL]);
export type Status = z.infer<typeof StatusSchema>;

const ContentBlockSchema = z.looseObject({ type: z.string() });
export const ToolResultSchema = z.looseObject({
  content: z._default(z.array(ContentBlockSchema), []),
  structuredContent: z.optional(z.record(z.string(), z.unknown())),
  isError: z.optional(z.boolean()),
  _meta: z.optional(z.record(z.string(), z.unknown())),
});
export type ToolResult = z.infer<typeof ToolResultSchema>;

/** A question the task waits on: the `inputRequests` entries of the status data (human in the loop). */
export const InputRequestSchema = z.object({
  method: z.literal("elicitation/create"),
  params: z.looseObject({
    message: z.string(),
    requestedSchema: z.looseObject({
      properties: z._default(z.record(z.string(), z.looseObject({})), {}),
      required: z.optional(z.array(z.string())),
    }),
  }),
});
export type InputRequest = z.infer<typeof InputRequestSchema>;

const TaskIdSchema = z.string().check(z.regex(/^[0-9a-f]{32}$/));

export const TaskDataSchema = z.looseObject({
  taskId: TaskIdSchema,
  tool: z.optional(z.string()),
  status: StatusSchema,
  statusMessage: z.optional(z.string()),
  progress: z._default(z.number(), 0),
  total: z.optional(z.number()),
  message: z.optional(z.string()),
  createdAt: z.optional(z.string()),
  lastUpdatedAt: z.optional(z.string()),
  pollInterval: z.optional(z.number()),
  result: z.optional(ToolResultSchema),
  error: z.optional(z.object({ code: z.number(), message: z.string() })),
  inputRequests: z.optional(z.record(z.string(), InputRequestSchema)),
});
export type TaskData = z.infer<typeof TaskDataSchema>;

export const ActivitySchema = z.extend(TaskDataSchema, {
  steps: z.array(z.object({ name: z.string(), at: z.string() })),
  logs: z.array(z.object({ level: z.string(), message: z.string(), at: z.string() })),
  /** Partial output after the cursor (absent from a server that has none). */
  partial: z._default(z.array(z.object({ n: z.number(), text: z.string(), at: z.string() })), []),
  cursor: z.int().check(z.minimum(0)),
  more: z.boolean(),
});
export type Activity = z.infer<typeof ActivitySchema>;

export const isTerminal = (status: Status): boolean => (TERMINAL as readonly string[]).includes(status);

/** Where the fallback and the check-back tools put the task as data for views (their structuredContent is for the model). */
export const TASK_DATA_META = "mcp-task-worker/task";

/** The task's data if a tool result carries it (the fallback, task_status, task_cancel, task_input in `_meta`; task_activity as structuredContent). */
export function taskDataOf(result: ToolResult): TaskData | undefined {
  const parsed = TaskDataSchema.safeParse(result._meta?.[TASK_DATA_META] ?? result.structuredContent);
  return parsed.success ? parsed.data : undefined;
}

/** The task a final result came from (`_meta["io.modelcontextprotocol/related-task"]`), if any. */
export function relatedTaskId(result: ToolResult): string | undefined {
  const related = z.object({ taskId: TaskIdSchema }).safeParse(result._meta?.["io.modelcontextprotocol/related-task"]);
  return related.success ? related.data.taskId : undefined;
}

/** The text blocks of a result, joined: what a tool error says. */
export const textOf = (result: ToolResult): string =>
  result.content
    .map((block) => (block.type === "text" && typeof block["text"] === "string" ? block["text"] : ""))
    .filter(Boolean)
    .join("\n");
