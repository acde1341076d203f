/**
 * The Tasks extension's methods (ext-tasks `specification/draft/tasks.md`): `tasks/get` inlines the
 * result, the error or the pending questions; `tasks/update` hands answers to the task;
 * `tasks/cancel` acknowledges and cancels cooperatively. Lookups are era-free (protocol/tasks.ts),
 * so another principal's task is exactly an unknown one. There is no `tasks/result` or `tasks/list`.
 */
import * as z from "zod";
import { InputResponsesV2Schema } from "@modelcontextprotocol/ext-tasks/core/v2";
import type { JsonObject } from "../json";
import { invalidParams, taskNotFound } from "../protocol/errors";
import { parseParams } from "../protocol/params";
import { cancelTask as cancel, requireTask } from "../protocol/tasks";
import type { Context20260728 } from "./context";
import { detailedTask, status20260728, taskResultMeta } from "./task-wire";
import { withPartialMeta } from "../protocol/partial-output";

const TaskIdParams = z.object({ taskId: z.string().max(256) }).loose();
const UpdateParams = z.object({ taskId: z.string().max(256), inputResponses: InputResponsesV2Schema }).loose();

export async function getTask(ctx: Context20260728, params: Record<string, unknown>): Promise<JsonObject> {
  const { taskId } = parseParams(TaskIdParams, "tasks/get", params);
  const snapshot = await requireTask(ctx.gateway, taskId);
  const meta = { ...taskResultMeta(snapshot), ...withPartialMeta(snapshot) };
  return { ...detailedTask(snapshot), ...(Object.keys(meta).length > 0 && { _meta: meta }) };
}

/**
 * Answers to the task's questions. Keys no question waits on are ignored (the extension's rule); an
 * answer that breaks its form is `-32602` naming the field, and nothing is taken (the task keeps
 * waiting); a task that has ended takes no answers, and says so.
 */
export async function updateTask(ctx: Context20260728, params: Record<string, unknown>): Promise<JsonObject> {
  const { taskId, inputResponses } = parseParams(UpdateParams, "tasks/update", params);
  const answered = await ctx.gateway.answer(taskId, inputResponses);
  if (answered.ok) return {};
  switch (answered.reason) {
    case "not_found":
      throw taskNotFound();
    case "invalid":
      throw invalidParams(
        `Invalid inputResponses: the answer to "${answered.key}" does not fit its question: ${answered.message}. Nothing was taken; the task still waits.`,
      );
    case "terminal":
      throw invalidParams(
        `Task ${taskId} is already ${status20260728(answered.snapshot)}; it no longer takes answers.`,
      );
  }
}

/** Cooperative: the ack comes at once; a task that already ended keeps its ending (and the ack is the same). */
export async function cancelTask(ctx: Context20260728, params: Record<string, unknown>): Promise<JsonObject> {
  const { taskId } = parseParams(TaskIdParams, "tasks/cancel", params);
  await cancel(ctx.gateway, taskId);
  return {};
}
