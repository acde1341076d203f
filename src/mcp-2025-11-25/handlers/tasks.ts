/** `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel` in 2025-11-25 (lookups era-free: protocol/tasks.ts). */
import {
  CancelTaskRequestSchema,
  GetTaskPayloadRequestSchema,
  GetTaskRequestSchema,
  ListTasksRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { isPerTaskPrincipal, isTerminal, PER_TASK_NO_LISTING } from "../../core";
import { ErrorCode, ProtocolError, taskNotFound } from "../../protocol/errors";
import { finalResult } from "../../protocol/task-results";
import { cancelTask, requireTask, taskPage } from "../../protocol/tasks";
import type { McpContext } from "../context";
import { followTask } from "../follow-task";
import type { SdkServer } from "../sdk-server";
import { wireTask } from "../task-messages";
import { resultStream } from "../task-streams";

export function registerTaskHandlers(server: SdkServer, ctx: McpContext): void {
  server.setRequestHandler(GetTaskRequestSchema, async (request) => {
    const snapshot = await requireTask(ctx.gateway, request.params.taskId);
    return wireTask(snapshot.task, snapshot.meta);
  });

  server.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) => {
    const { taskId } = request.params;
    const snapshot = await requireTask(ctx.gateway, taskId);
    if (isTerminal(snapshot.task.status) && snapshot.outcome)
      return finalResult(taskId, snapshot.outcome, snapshot.meta);
    const followed = await followTask(ctx, {
      taskId,
      requestId: extra.requestId,
      stream: resultStream(extra.requestId, snapshot.meta, ctx),
      meta: snapshot.meta,
      afterSeq: snapshot.lastSeq,
      ...(snapshot.inputRequests && { pending: snapshot.inputRequests }),
    });
    if (followed.kind === "result") return finalResult(taskId, followed.outcome, snapshot.meta);
    if (followed.kind === "disconnected")
      throw new ProtocolError(ErrorCode.ConnectionClosed, "The client stopped reading.");
    throw taskNotFound();
  });

  server.setRequestHandler(ListTasksRequestSchema, async (request) => {
    // Where every caller is one principal, its list would be everyone's tasks (core/model/per-task.ts).
    if (isPerTaskPrincipal(ctx.principal)) throw new ProtocolError(ErrorCode.InvalidRequest, PER_TASK_NO_LISTING);
    const { page } = await taskPage(ctx.gateway, request.params, "tasks/list");
    return { tasks: page.tasks, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) };
  });

  server.setRequestHandler(CancelTaskRequestSchema, async (request) => {
    const cancelled = await cancelTask(ctx.gateway, request.params.taskId);
    if (cancelled.kind === "cancelled") return wireTask(cancelled.snapshot.task, cancelled.snapshot.meta);
    const snapshot = await ctx.gateway.get(request.params.taskId);
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Cannot cancel task: it is already ${snapshot?.task.status ?? "finished"} (only working or input_required tasks can be cancelled).`,
    );
  });
}
