/** `tasks/get`, `tasks/result`, `tasks/list`, `tasks/cancel`, served from the TaskObjects. */
import { CancelTaskRequestSchema, GetTaskPayloadRequestSchema, GetTaskRequestSchema, ListTasksRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { isTerminal, type TaskSnapshot } from "../../core";
import { ErrorCode, ProtocolError } from "../../protocol/errors";
import { finalResult } from "../../protocol/task-results";
import type { McpContext } from "../context";
import { followTask } from "../follow-task";
import type { SdkServer } from "../sdk-server";
import { wireTask } from "../task-messages";
import { resultStream } from "../task-streams";

/** Unknown, expired and foreign tasks all get exactly this error. */
export const taskNotFound = (): ProtocolError =>
  new ProtocolError(ErrorCode.InvalidParams, "Failed to retrieve task: Task not found. Check the taskId; tasks are deleted once their ttl has passed.");

export async function requireTask(ctx: McpContext, taskId: string): Promise<TaskSnapshot> {
  const snapshot = await ctx.gateway.get(taskId);
  if (!snapshot) throw taskNotFound();
  return snapshot;
}

export function registerTaskHandlers(server: SdkServer, ctx: McpContext): void {
  server.setRequestHandler(GetTaskRequestSchema, async (request) => {
    const snapshot = await requireTask(ctx, request.params.taskId);
    return wireTask(snapshot.task, snapshot.meta);
  });

  server.setRequestHandler(GetTaskPayloadRequestSchema, async (request, extra) => {
    const { taskId } = request.params;
    const snapshot = await requireTask(ctx, taskId);
    if (isTerminal(snapshot.task.status) && snapshot.outcome) return finalResult(taskId, snapshot.outcome, snapshot.meta);
    const followed = await followTask(ctx, {
      taskId,
      requestId: extra.requestId,
      stream: resultStream(extra.requestId, snapshot.meta, ctx),
      meta: snapshot.meta,
      afterSeq: snapshot.lastSeq,
      ...(snapshot.inputRequests && { pending: snapshot.inputRequests }),
    });
    if (followed.kind === "result") return finalResult(taskId, followed.outcome, snapshot.meta);
    if (followed.kind === "disconnected") throw new ProtocolError(ErrorCode.ConnectionClosed, "The client stopped reading.");
    throw taskNotFound();
  });

  server.setRequestHandler(ListTasksRequestSchema, async (request) => {
    const page = await ctx.gateway.list(request.params?.cursor);
    if (!page) throw new ProtocolError(ErrorCode.InvalidParams, "Invalid cursor: pass back a nextCursor from an earlier tasks/list response unchanged.");
    return { tasks: page.tasks, ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) };
  });

  server.setRequestHandler(CancelTaskRequestSchema, async (request) => {
    const outcome = await ctx.gateway.cancel(request.params.taskId);
    if (!outcome.ok) {
      if (outcome.reason === "not_found") throw taskNotFound();
      const snapshot = await ctx.gateway.get(request.params.taskId);
      throw new ProtocolError(ErrorCode.InvalidParams, `Cannot cancel task: it is already ${snapshot?.task.status ?? "finished"} (only working or input_required tasks can be cancelled).`);
    }
    return wireTask(outcome.snapshot.task, outcome.snapshot.meta);
  });
}
