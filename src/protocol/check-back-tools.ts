/**
 * Check-back tools for clients that do not speak MCP tasks (most of today's): a model that
 * got a task link instead of a result calls `task_status`, `task_result` or `task_cancel`
 * with the taskId; the task card (an MCP App) calls them too, and `task_activity`, which only
 * it sees. They are ordinary quick tools (taskSupport "forbidden") bound to the caller's
 * principal through the gateway, exactly like `tasks/*`: a foreign task is "not found".
 * Each answers the same sentences in its text and its `structuredContent` (docs/model-facing.md),
 * with the task as data for the card in `_meta`.
 */
import * as z from "zod";
import { isTerminal, type TaskGateway, type TaskSnapshot } from "../core";
import type { JsonObject } from "../json";
import { answerReport, metaFor, notFound, refusal, resultOf, statusResult, textResult } from "./check-back-answers";
import { ErrorCode, ProtocolError } from "./errors";
import { followFeed } from "./follow";
import { jsonInputSchema } from "./input-schema";
import { checkBackOutputSchema } from "./model-facing";
import { ACTIVITY_PAGE, taskActivity } from "./task-activity";
import { appOnlyToolMeta } from "./task-card";
import { statusSentences } from "./task-sentences";
import { withNewestPieces } from "./partial-sentences";
import { taskStatusContent } from "./task-status-data";

/** What a check-back tool reaches: the caller's tasks. */
export interface CheckBackContext {
  gateway: TaskGateway;
}

/**
 * task_result holds a running task's call this long for its end: inside every agent's 60 s tool timeout,
 * and long enough that agents halting at the 5th identical call in a row do so after ~2 min, not 25 s.
 * Not INLINE_WAIT_MS, which is how soon a first call answers (docs/model-facing.md, "How long task_result waits").
 */
export const RESULT_WAIT_MS = 25_000;

const TaskIdField = z
  .string()
  .min(1)
  .max(128)
  .describe("The taskId from the task link (task://<taskId>) a long tool call returned.");
const TaskIdInput = z.object({ taskId: TaskIdField });
const InputInput = z.object({
  taskId: TaskIdField,
  inputResponses: z
    .record(z.string().max(64), z.unknown())
    .describe(
      'The answers by question key, as the task asked them: { "<key>": { "action": "accept", "content": { ... } } }, or { "action": "decline" } / { "action": "cancel" }.',
    ),
});
const ActivityInput = z.object({
  taskId: TaskIdField,
  after: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe("The cursor an earlier call returned; omit to read from the start."),
});

interface CheckBackTool {
  name: string;
  title: string;
  description: string;
  inputSchema: z.ZodObject;
  /** Only the task card calls it: listed with `_meta.ui.visibility: ["app"]`, so hosts keep it from the model. */
  appOnly?: boolean;
  readOnly: boolean;
  run(args: unknown, ctx: CheckBackContext): Promise<JsonObject>;
}

/** Binds a tool's parsed input type to its schema, then erases it for the list below. */
function define<Input extends z.ZodObject>(
  tool: Omit<CheckBackTool, "inputSchema" | "run"> & {
    inputSchema: Input;
    run(args: z.infer<Input>, ctx: CheckBackContext): Promise<JsonObject>;
  },
): CheckBackTool {
  return { ...tool, run: (args, ctx) => tool.run(tool.inputSchema.parse(args), ctx) };
}

/** Wait up to `ms` for the task's end or its first question; false if it surely still runs as it did. */
async function awaitEnd(ctx: CheckBackContext, snapshot: TaskSnapshot, ms: number): Promise<boolean> {
  // A task waiting for a person ends no sooner for a held call: say so at once.
  if (ms <= 0 || snapshot.task.status === "input_required") return false;
  const feed = await ctx.gateway.feed(snapshot.task.taskId, snapshot.lastSeq);
  if (!feed) return false;
  const followed = await followFeed(feed, {
    afterSeq: snapshot.lastSeq,
    deadline: Date.now() + ms,
    stopOnQuestion: true,
  });
  return followed.kind !== "timeout";
}

const CHECK_BACK_TOOLS: CheckBackTool[] = [
  define({
    name: "task_status",
    title: "Check a running task",
    description:
      "Shows the status and progress of a long tool call that is running in the background as a task. Use it when a tool answered with a task link (task://...) instead of a result.",
    inputSchema: TaskIdInput,
    readOnly: true,
    async run({ taskId }, ctx) {
      const snapshot = await ctx.gateway.get(taskId);
      if (!snapshot) return notFound(taskId);
      return statusResult(withNewestPieces(statusSentences(snapshot), snapshot), snapshot);
    },
  }),
  define({
    name: "task_result",
    title: "Get a task's result",
    description:
      "Returns the result of a background task once it has finished; if it is still running, waits up to 25 s for its end and otherwise says so and when to call again. Use it when a tool answered with a task link (task://...).",
    inputSchema: TaskIdInput,
    readOnly: true,
    async run({ taskId }, ctx) {
      const snapshot = await ctx.gateway.get(taskId);
      if (!snapshot) return notFound(taskId);
      if (isTerminal(snapshot.task.status)) return resultOf(snapshot);
      if (await awaitEnd(ctx, snapshot, RESULT_WAIT_MS)) {
        const ended = await ctx.gateway.get(taskId);
        if (!ended) return notFound(taskId);
        if (isTerminal(ended.task.status)) return resultOf(ended);
      }
      const latest = (await ctx.gateway.get(taskId)) ?? snapshot;
      const now = statusSentences(latest);
      return statusResult({ ...now, summary: `Not the result yet: ${now.summary}` }, latest);
    },
  }),
  define({
    name: "task_cancel",
    title: "Cancel a running task",
    description: "Cancels a background task that is still running. Finished tasks cannot be cancelled.",
    inputSchema: TaskIdInput,
    readOnly: false,
    async run({ taskId }, ctx) {
      const outcome = await ctx.gateway.cancel(taskId);
      if (outcome.ok)
        return statusResult(
          { summary: `Cancelled task ${taskId} ("${outcome.snapshot.tool}"); it will not finish and has no result.` },
          outcome.snapshot,
        );
      if (outcome.reason === "not_found") return notFound(taskId);
      const snapshot = await ctx.gateway.get(taskId);
      const text = `Task ${taskId} is already ${snapshot?.task.status ?? "finished"}; only a running task can be cancelled.`;
      return snapshot ? refusal(text, snapshot) : textResult(text, { isError: true });
    },
  }),
  define({
    name: "task_input",
    title: "Answer a task's question",
    description:
      "Passes a person's answer on to a background task that waits for input (status input_required; task_status and task links show its question). Ask the person the question first; never answer for them.",
    inputSchema: InputInput,
    readOnly: false,
    async run({ taskId, inputResponses }, ctx) {
      return answerReport(taskId, await ctx.gateway.answer(taskId, inputResponses), Object.keys(inputResponses));
    },
  }),
  define({
    name: "task_activity",
    title: "Follow a task (task card)",
    description:
      "The task card's poll: a task's status as data, plus the steps it finished and the log lines it wrote after a cursor.",
    inputSchema: ActivityInput,
    appOnly: true,
    readOnly: true,
    async run({ taskId, after = 0 }, ctx) {
      // Events first: a step logged between the two reads then shows with a status at least as new.
      const events = await ctx.gateway.events(taskId, after, ACTIVITY_PAGE);
      const snapshot = await ctx.gateway.get(taskId);
      if (!snapshot) return notFound(taskId);
      const activity = taskActivity(events, after);
      const text = `Task ${taskId} is ${snapshot.task.status}: ${activity.steps.length} step(s) finished and ${activity.logs.length} log line(s) since ${after}.`;
      // Only the card calls it (the model never sees it), so the task as data is its structured answer.
      return textResult(text, {
        structuredContent: { summary: text, ...taskStatusContent(snapshot), ...activity },
        _meta: metaFor(snapshot),
      });
    },
  }),
];

/** task_activity's answer: the task as data plus its activity (the card's ActivitySchema). */
const ACTIVITY_OUTPUT_SCHEMA: JsonObject = {
  type: "object",
  properties: {
    summary: { type: "string" },
    taskId: { type: "string" },
    status: { type: "string" },
    steps: { type: "array" },
    logs: { type: "array" },
    partial: { type: "array" },
    cursor: { type: "integer" },
    more: { type: "boolean" },
  },
  required: ["taskId", "status", "steps", "logs", "cursor", "more"],
};

export const isCheckBackTool = (name: string): boolean => CHECK_BACK_TOOLS.some((tool) => tool.name === name);

/** The check-back tools a model calls (not the card's), with their zod input schemas: for servers that list tools from zod (SDK v1's McpServer). */
export const modelCheckBackTools = (): readonly Pick<
  CheckBackTool,
  "name" | "title" | "description" | "inputSchema" | "readOnly"
>[] => CHECK_BACK_TOOLS.filter((tool) => tool.appOnly !== true);

/** `tools/list` entries: always listed (see docs/webhooks.md, "Check-back tools"). */
export function checkBackListings(): JsonObject[] {
  return CHECK_BACK_TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonInputSchema(tool.inputSchema),
    annotations: { readOnlyHint: tool.readOnly, openWorldHint: false },
    outputSchema: tool.appOnly ? ACTIVITY_OUTPUT_SCHEMA : checkBackOutputSchema(),
    execution: { taskSupport: "forbidden" },
    ...(tool.appOnly && { _meta: appOnlyToolMeta() }),
  }));
}

/** Runs a check-back tool (taskSupport "forbidden": the caller refuses task augmentation); bad arguments are -32602, like any tool's. */
export async function callCheckBackTool(name: string, args: unknown, ctx: CheckBackContext): Promise<JsonObject> {
  const tool = CHECK_BACK_TOOLS.find((candidate) => candidate.name === name);
  if (!tool) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool "${name}".`);
  const parsed = tool.inputSchema.safeParse(args ?? {});
  if (!parsed.success) {
    const fields = Object.keys(tool.inputSchema.shape).join(", ");
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Invalid arguments for tool "${name}": pass { ${fields} } (taskId: the 32 hex characters of the task link).`,
    );
  }
  return tool.run(parsed.data, ctx);
}
