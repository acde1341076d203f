/**
 * What the console reads from the server, parsed at the edge (zod/mini: ~15 KB minified against
 * ~450 KB for full zod). Objects are loose: the server may add fields without breaking the page.
 */
import * as z from "zod/mini";

// The page's CSP has no 'unsafe-eval': skip zod's `new Function` probe, which a strict CSP reports.
z.config({ jitless: true });

export const STATUSES = ["working", "input_required", "completed", "failed", "cancelled"] as const;
export type TaskStatus = (typeof STATUSES)[number];
export const isTerminalStatus = (status: TaskStatus): boolean =>
  status === "completed" || status === "failed" || status === "cancelled";

const Status = z.enum(STATUSES);

export const ProgressSchema = z.looseObject({
  progress: z.number(),
  total: z.optional(z.number()),
  message: z.optional(z.string()),
});
export type Progress = z.infer<typeof ProgressSchema>;

/** A task view (the fields of MCP's `Task`), as `status` events and the list carry it. */
const TaskViewShape = {
  taskId: z.string(),
  status: Status,
  statusMessage: z.optional(z.string()),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttl: z.number(),
  pollInterval: z.optional(z.number()),
};
export const TaskViewSchema = z.looseObject(TaskViewShape);
export type TaskView = z.infer<typeof TaskViewSchema>;

const ContentBlock = z.looseObject({ type: z.string(), text: z.optional(z.string()) });
export const ToolResultSchema = z.looseObject({
  content: z.optional(z.array(ContentBlock)),
  structuredContent: z.optional(z.record(z.string(), z.unknown())),
  isError: z.optional(z.boolean()),
});
export type ToolResult = z.infer<typeof ToolResultSchema>;

export const TaskErrorSchema = z.looseObject({ code: z.number(), message: z.string() });
export type TaskError = z.infer<typeof TaskErrorSchema>;

/** `GET /tasks`: one page of the caller's tasks, newest first. */
export const TaskListSchema = z.looseObject({
  principal: z.string(),
  pollInterval: z.optional(z.number()),
  tasks: z.array(z.looseObject({ ...TaskViewShape, tool: z.string() })),
  nextCursor: z.optional(z.string()),
});
export type TaskList = z.infer<typeof TaskListSchema>;
export type ListedTask = TaskList["tasks"][number];

/** A question the task waits on (`inputRequests` entries): an elicitation form of flat fields. */
export const InputRequestSchema = z.looseObject({
  method: z.literal("elicitation/create"),
  params: z.looseObject({
    message: z.string(),
    requestedSchema: z.looseObject({
      properties: z.record(z.string(), z.looseObject({ type: z.optional(z.string()) })),
      required: z.optional(z.array(z.string())),
    }),
  }),
});
export type InputRequest = z.infer<typeof InputRequestSchema>;

/** A piece of partial output: its number and one content block (text, or a resource link). */
const PieceSchema = z.looseObject({
  n: z.number(),
  content: z.looseObject({
    type: z.string(),
    text: z.optional(z.string()),
    uri: z.optional(z.string()),
    name: z.optional(z.string()),
  }),
});
type Piece = z.infer<typeof PieceSchema>;
/** A piece in one line: its text, or a link's name and address. */
export const pieceText = ({ content }: Piece): string =>
  content.text ?? `${content.name ?? content.type}${content.uri ? ` (${content.uri})` : ""}`;

/** `GET /tasks/{id}` and `POST /tasks/{id}/cancel|input`: the task with its progress, questions and outcome. */
/** A step given options, as the task document lists it (`steps`: its attempts). */
export const StepAttemptsSchema = z.looseObject({
  name: z.string(),
  state: z.string(),
  attempts: z.number(),
  durationsMs: z.array(z.number()),
  lastError: z.optional(z.string()),
  retryAt: z.optional(z.string()),
});
export type StepAttempts = z.infer<typeof StepAttemptsSchema>;

export const TaskDocumentSchema = z.looseObject({
  ...TaskViewShape,
  tool: z.string(),
  progress: z.optional(ProgressSchema),
  partial: z.optional(z.looseObject({ count: z.number(), pieces: z.optional(z.array(PieceSchema)) })),
  inputRequests: z.optional(z.record(z.string(), InputRequestSchema)),
  steps: z.optional(z.array(StepAttemptsSchema)),
  result: z.optional(ToolResultSchema),
  error: z.optional(TaskErrorSchema),
});
export type TaskDocument = z.infer<typeof TaskDocumentSchema>;

/** An error body of the data routes: `{ error, message }`. */
export const ErrorBodySchema = z.looseObject({
  error: z.string(),
  message: z.string(),
  task: z.optional(TaskDocumentSchema),
});

/** `POST /tasks/{id}/input`: which answers were taken, and the task after them. */
export const AnswerBodySchema = z.looseObject({
  accepted: z.array(z.string()),
  message: z.string(),
  task: TaskDocumentSchema,
});

/** One event of `GET /tasks/{id}/events`, by its `event:` name. */
export type TaskEvent =
  | { type: "status"; seq: number; task: TaskView }
  | { type: "progress"; seq: number; progress: Progress }
  | { type: "step"; seq: number; name: string }
  | { type: "log"; seq: number; level: string; message: string }
  | { type: "partial"; seq: number; n: number; text: string }
  | { type: "result"; seq: number; result: ToolResult }
  | { type: "result"; seq: number; error: TaskError };

const StepSchema = z.looseObject({ name: z.string() });
const LogSchema = z.looseObject({ level: z.string(), message: z.string() });
const ResultErrorSchema = z.looseObject({ error: TaskErrorSchema });

/** Event ids of this view: `t.<taskId>.0.<seq>`. */
export function eventSeq(id: string | undefined, taskId: string): number | undefined {
  const match = id === undefined ? null : /^t\.([0-9a-f]{32})\.0\.(\d{1,15})$/.exec(id);
  return match?.[1] === taskId && match[2] !== undefined ? Number(match[2]) : undefined;
}

/** An SSE event of a task's stream, or undefined for one the console does not know (skipped). */
export function parseTaskEvent(type: string | undefined, data: string, seq: number): TaskEvent | undefined {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return undefined;
  }
  switch (type) {
    case "status": {
      const task = TaskViewSchema.safeParse(json);
      return task.success ? { type, seq, task: task.data } : undefined;
    }
    case "progress": {
      const progress = ProgressSchema.safeParse(json);
      return progress.success ? { type, seq, progress: progress.data } : undefined;
    }
    case "step": {
      const step = StepSchema.safeParse(json);
      return step.success ? { type, seq, name: step.data.name } : undefined;
    }
    case "log": {
      const log = LogSchema.safeParse(json);
      return log.success ? { type, seq, level: log.data.level, message: log.data.message } : undefined;
    }
    case "partial": {
      const piece = PieceSchema.safeParse(json);
      return piece.success ? { type, seq, n: piece.data.n, text: pieceText(piece.data) } : undefined;
    }
    case "result": {
      const failed = ResultErrorSchema.safeParse(json);
      if (failed.success) return { type, seq, error: failed.data.error };
      const result = ToolResultSchema.safeParse(json);
      return result.success ? { type, seq, result: result.data } : undefined;
    }
    default:
      return undefined;
  }
}
