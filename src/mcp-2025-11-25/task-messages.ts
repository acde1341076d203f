/**
 * How task events become MCP 2025-11-25 messages: a pure mapping, shared by live streams and by
 * resumption (so a replay sends exactly what the live stream sent) and by the GET stream.
 */
import type {
  GetTaskResult,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import {
  elicitationRequest,
  outcomeOf,
  echoMeta,
  type InputQuestion,
  type TaskEvent,
  type TaskMeta,
  type Progress,
  type TaskView,
} from "../core";
import { finalResult, relatedTask } from "../protocol/task-results";
import { questionRequestId } from "./question-ids";
import type { ResponseStream, SessionFeed } from "./task-streams";

/** The MCP `Task` object, with the correlation id echoed in `_meta`. */
export function wireTask(view: TaskView, meta: TaskMeta): GetTaskResult {
  const echo = echoMeta(meta);
  return { ...view, ...(echo && { _meta: echo }) };
}

export const statusNotification = (view: TaskView, meta: TaskMeta): JSONRPCNotification => ({
  jsonrpc: "2.0",
  method: "notifications/tasks/status",
  params: wireTask(view, meta),
});

/** `notifications/progress` for `token`; with `taskId`, tied to that task by related-task `_meta`. */
export const progressNotification = (
  token: string | number,
  progress: Progress,
  taskId?: string,
): JSONRPCNotification => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: token, ...progress, ...(taskId !== undefined && { _meta: relatedTask(taskId) }) },
});

/**
 * A task's question as the server's `elicitation/create` request, tied to the task by related-task
 * `_meta`; its id names the task and the question, so the client's response (POSTed to /mcp, to
 * any isolate) finds its way back (question-ids.ts).
 */
export const questionRequest = (taskId: string, key: string, question: InputQuestion): JSONRPCRequest => {
  const { method, params } = elicitationRequest(question);
  return {
    jsonrpc: "2.0",
    id: questionRequestId(taskId, key),
    method,
    params: { ...params, _meta: relatedTask(taskId) },
  };
};

export interface StreamTarget {
  taskId: string;
  requestId: RequestId;
  meta: TaskMeta;
  stream: ResponseStream;
  /**
   * For a stream of the task's own session: whether it was open when event `seq` was committed.
   * Events it was not open for went to the session's GET stream instead (task-streams.ts).
   */
  openAt?(seq: number): boolean;
}

/**
 * The message a task event becomes on a response stream, or undefined for events that stream
 * does not carry (task-streams.ts decides which). `result` becomes the final response (or error).
 */
export function messageForEvent(event: TaskEvent, target: StreamTarget): JSONRPCMessage | undefined {
  const { stream } = target;
  if (event.type !== "result" && target.openAt && !target.openAt(event.seq)) return undefined;
  switch (event.type) {
    case "progress":
      if (stream.progressToken === undefined) return undefined;
      return progressNotification(stream.progressToken, event.data, stream.related ? target.taskId : undefined);
    case "status":
      return stream.status ? statusNotification(event.data, target.meta) : undefined;
    case "question":
      return stream.questions ? questionRequest(target.taskId, event.data.key, event.data) : undefined;
    case "result": {
      const outcome = outcomeOf(event.data);
      if (outcome.kind === "error") return { jsonrpc: "2.0", id: target.requestId, error: outcome.error };
      return { jsonrpc: "2.0", id: target.requestId, result: finalResult(target.taskId, outcome, target.meta) };
    }
    default:
      return undefined;
  }
}

/** The message a task event becomes on the GET stream of the session that follows it. */
export function sessionMessageForEvent(
  event: TaskEvent,
  taskId: string,
  meta: TaskMeta,
  feed: SessionFeed,
): JSONRPCNotification | JSONRPCRequest | undefined {
  switch (event.type) {
    case "status":
      return feed.tasks ? statusNotification(event.data, meta) : undefined;
    case "progress":
      return feed.progressToken === undefined
        ? undefined
        : progressNotification(feed.progressToken, event.data, feed.tasks ? taskId : undefined);
    case "question":
      return feed.questions ? questionRequest(taskId, event.data.key, event.data) : undefined;
    default:
      return undefined;
  }
}
