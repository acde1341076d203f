/**
 * Check-back tools for clients that do not speak MCP tasks (most of today's): a model that
 * got a task link instead of a result calls `task_status`, `task_result` or `task_cancel`
 * with the taskId. They are ordinary quick tools (taskSupport "forbidden") bound to the
 * caller's principal through the gateway, exactly like `tasks/*`: a foreign task is "not found".
 */
import { z } from "zod";
import { taskDocument, taskMeta } from "../tasks/document";
import { isTerminal, type JsonObject } from "../tasks/model";
import type { TaskSnapshot } from "../tasks/task-object";
import type { McpContext } from "./context";
import { ErrorCode, ProtocolError } from "./errors";
import { jsonInputSchema } from "./input-schema";
import { finalResult, relatedTask } from "./task-messages";

/** What the check-back tools use: the caller's gateway and the settings (the same in both eras). */
export type CheckBackContext = Pick<McpContext, "gateway" | "settings">;

/** task_result waits at most this long (and never past INLINE_WAIT_MS) before answering "still running". */
const RESULT_WAIT_MS = 5000;

const TaskIdInput = z.object({ taskId: z.string().min(1).max(128).describe("The taskId from the task link (task://<taskId>) a long tool call returned.") });

interface CheckBackTool {
  name: string;
  title: string;
  description: string;
  run(taskId: string, ctx: CheckBackContext): Promise<JsonObject>;
}

const textResult = (text: string, extra: JsonObject = {}): JsonObject => ({ content: [{ type: "text", text }], ...extra });
const notFound = (taskId: string): JsonObject =>
  textResult(`No task "${taskId.slice(0, 64)}" was found. Check the taskId (32 hex characters from the task:// link); tasks are deleted once their ttl has passed.`, { isError: true });

function metaFor(snapshot: TaskSnapshot): JsonObject {
  return { ...taskMeta(snapshot), ...relatedTask(snapshot.task.taskId) };
}

/** The task document without its result: status, progress, timestamps. */
function statusDocument(snapshot: TaskSnapshot): JsonObject {
  const doc = taskDocument(snapshot);
  delete doc["result"];
  delete doc["error"];
  delete doc["_meta"];
  return doc;
}

function describe(snapshot: TaskSnapshot): string {
  const { task, progress } = snapshot;
  const parts = [`Task ${task.taskId} ("${snapshot.tool}") is ${task.status}${task.statusMessage ? `: ${task.statusMessage}` : "."}`];
  if (progress) parts.push(`Progress: ${progress.progress}${progress.total !== undefined ? ` of ${progress.total}` : ""}${progress.message ? ` (${progress.message})` : ""}.`);
  if (isTerminal(task.status)) parts.push(`Call task_result with taskId "${task.taskId}" to get its result.`);
  else parts.push(`It is still running. Check again in about ${Math.max(1, Math.round(task.pollInterval / 1000))} s or later with task_status, or call task_result, which waits a few seconds for the result.`);
  return parts.join(" ");
}

function resultOf(snapshot: TaskSnapshot): JsonObject {
  const { taskId } = snapshot.task;
  if (!snapshot.outcome) return textResult(describe(snapshot), { _meta: metaFor(snapshot) });
  try {
    return finalResult(taskId, snapshot.outcome, snapshot);
  } catch (error) {
    // A task that ended with a protocol error: the model sees it as a failed tool result.
    const message = error instanceof Error ? error.message : String(error);
    return textResult(`Task ${taskId} failed: ${message}`, { isError: true, _meta: metaFor(snapshot) });
  }
}

/** Wait up to `ms` for the task's terminal event; true if it ended. */
async function awaitEnd(ctx: CheckBackContext, snapshot: TaskSnapshot, ms: number): Promise<boolean> {
  if (ms <= 0) return false;
  const feed = await ctx.gateway.feed(snapshot.task.taskId, snapshot.lastSeq);
  if (!feed) return false;
  const deadline = Date.now() + ms;
  try {
    for (;;) {
      const remaining = deadline - Date.now();
      if (remaining <= 0) return false;
      const event = await feed.next(remaining);
      if (!event) return event === null;
      if (event.type === "result") return true;
    }
  } finally {
    feed.close();
  }
}

const CHECK_BACK_TOOLS: CheckBackTool[] = [
  {
    name: "task_status",
    title: "Check a running task",
    description: "Shows the status and progress of a long tool call that is running in the background as a task. Use it when a tool answered with a task link (task://...) instead of a result.",
    async run(taskId, ctx) {
      const snapshot = await ctx.gateway.get(taskId);
      if (!snapshot) return notFound(taskId);
      return textResult(describe(snapshot), { structuredContent: statusDocument(snapshot), _meta: metaFor(snapshot) });
    },
  },
  {
    name: "task_result",
    title: "Get a task's result",
    description: "Returns the result of a background task once it has finished; if it is still running, waits a few seconds and otherwise says so (call it again later). Use it when a tool answered with a task link (task://...).",
    async run(taskId, ctx) {
      const snapshot = await ctx.gateway.get(taskId);
      if (!snapshot) return notFound(taskId);
      if (isTerminal(snapshot.task.status)) return resultOf(snapshot);
      if (await awaitEnd(ctx, snapshot, Math.min(RESULT_WAIT_MS, ctx.settings.inlineWaitMs))) {
        const ended = await ctx.gateway.get(taskId);
        if (!ended) return notFound(taskId);
        if (isTerminal(ended.task.status)) return resultOf(ended);
      }
      const latest = (await ctx.gateway.get(taskId)) ?? snapshot;
      return textResult(`This is not the result yet. ${describe(latest)}`, { structuredContent: statusDocument(latest), _meta: metaFor(latest) });
    },
  },
  {
    name: "task_cancel",
    title: "Cancel a running task",
    description: "Cancels a background task that is still running. Finished tasks cannot be cancelled.",
    async run(taskId, ctx) {
      const outcome = await ctx.gateway.cancel(taskId);
      if (outcome.ok) return textResult(`Cancelled task ${taskId}.`, { structuredContent: statusDocument(outcome.snapshot), _meta: metaFor(outcome.snapshot) });
      if (outcome.reason === "not_found") return notFound(taskId);
      const snapshot = await ctx.gateway.get(taskId);
      return textResult(`Task ${taskId} is already ${snapshot?.task.status ?? "finished"}; only a running task can be cancelled.`, { isError: true });
    },
  },
];

export const isCheckBackTool = (name: string): boolean => CHECK_BACK_TOOLS.some((tool) => tool.name === name);

/** `tools/list` entries: always listed (see docs/webhooks.md, "Check-back tools"). */
export function checkBackListings(): JsonObject[] {
  const inputSchema = jsonInputSchema(TaskIdInput);
  return CHECK_BACK_TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema,
    annotations: { readOnlyHint: tool.name !== "task_cancel", openWorldHint: false },
    execution: { taskSupport: "forbidden" },
  }));
}

/** Runs a check-back tool; bad arguments or task augmentation are protocol errors, like any tool's. */
export async function callCheckBackTool(name: string, args: unknown, task: unknown, ctx: CheckBackContext): Promise<JsonObject> {
  const tool = CHECK_BACK_TOOLS.find((candidate) => candidate.name === name);
  if (!tool) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool "${name}".`);
  if (task !== undefined) throw new ProtocolError(ErrorCode.MethodNotFound, `Tool "${name}" does not run as a task (execution.taskSupport is "forbidden"); call it without params.task.`);
  const parsed = TaskIdInput.safeParse(args ?? {});
  if (!parsed.success) throw new ProtocolError(ErrorCode.InvalidParams, `Invalid arguments for tool "${name}": pass { "taskId": "<32 hex characters>" }.`);
  return tool.run(parsed.data.taskId, ctx);
}
