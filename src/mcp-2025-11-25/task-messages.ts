/**
 * How task events become MCP 2025-11-25 messages: a pure mapping, shared by live streams and by
 * resumption (so a replay sends exactly what the live stream sent) and by the GET stream.
 */
import type { GetTaskResult, JSONRPCMessage, JSONRPCNotification, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { outcomeOf, type TaskEvent } from "../core/task-events";
import { echoMeta, type TaskMeta } from "../core/task-meta";
import type { Progress, TaskView } from "../core/task-record";
import { finalResult, relatedTask } from "../protocol/task-results";
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
export const progressNotification = (token: string | number, progress: Progress, taskId?: string): JSONRPCNotification => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: token, ...progress, ...(taskId !== undefined && { _meta: relatedTask(taskId) }) },
});

export interface StreamTarget {
  taskId: string;
  requestId: RequestId;
  meta: TaskMeta;
  stream: ResponseStream;
}

/**
 * The message a task event becomes on a response stream, or undefined for events that stream
 * does not carry (task-streams.ts decides which). `result` becomes the final response (or error).
 */
export function messageForEvent(event: TaskEvent, target: StreamTarget): JSONRPCMessage | undefined {
  const { stream } = target;
  switch (event.type) {
    case "progress":
      if (stream.progressToken === undefined) return undefined;
      return progressNotification(stream.progressToken, event.data, stream.related ? target.taskId : undefined);
    case "status":
      return stream.status ? statusNotification(event.data, target.meta) : undefined;
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
export function sessionMessageForEvent(event: TaskEvent, taskId: string, meta: TaskMeta, feed: SessionFeed): JSONRPCNotification | undefined {
  switch (event.type) {
    case "status":
      return statusNotification(event.data, meta);
    case "progress":
      return feed.progressToken === undefined ? undefined : progressNotification(feed.progressToken, event.data, taskId);
    default:
      return undefined;
  }
}
