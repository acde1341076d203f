/**
 * Which stream carries which message of a task, for a 2025-11-25 client (docs/streams.md,
 * "Who hears what"): decided once, when a stream opens or a task is created, and kept with the
 * task as adapter state, so a resumed stream carries exactly what the live one did and no client
 * hears a message twice.
 */
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import type { AdapterStateEntry } from "../core/adapter-state";
import type { TaskMeta } from "../core/task-meta";

const TokenSchema = z.union([z.string(), z.number()]);

/** A task's registered response stream (a `tools/call` or `tasks/result` answered as SSE), resumable by event id. */
export const RESPONSE_STREAM_STATE = "mcp-2025-11-25/stream";
export const ResponseStreamSchema = z.object({
  requestId: TokenSchema,
  /** Its `notifications/progress` carry this token; without one it carries no progress. */
  progressToken: TokenSchema.optional(),
  /** It carries `notifications/tasks/status`. */
  status: z.boolean(),
  /** Its progress carries related-task `_meta` (its client declared tasks). */
  related: z.boolean(),
  /** The last event it carries, once it ended before the task did (a plain call's inline wait ran out). */
  endSeq: z.number().int().optional(),
});
export type ResponseStream = z.infer<typeof ResponseStreamSchema>;

/** The session a task was created in follows it on its GET stream (key: the session id). */
export const SESSION_FEED_STATE = "mcp-2025-11-25/session";
export const SessionFeedSchema = z.object({
  /** The GET stream carries the task's progress with this token (task-augmented calls only). */
  progressToken: TokenSchema.optional(),
});
export type SessionFeed = z.infer<typeof SessionFeedSchema>;

/** What a client is: its session (if any) and whether it declared the tasks capability there. */
export interface Caller {
  sessionId?: string;
  clientTasks: boolean;
}

/**
 * A task created by `caller`: if its client declared tasks, its session's GET stream carries the
 * task's status notifications and, for a task-augmented call, its progress. A plain call's progress
 * stays on the call's own stream: its token dies with the call's response.
 */
export function sessionFeedFor(caller: Caller, meta: TaskMeta, augmented: boolean): AdapterStateEntry[] {
  if (!caller.clientTasks || caller.sessionId === undefined) return [];
  const value: SessionFeed = augmented && meta.progressToken !== undefined ? { progressToken: meta.progressToken } : {};
  return [{ kind: SESSION_FEED_STATE, key: caller.sessionId, value }];
}

/** A plain `tools/call`'s own stream: its progress, then its response. Status goes to the GET stream of a client that speaks tasks, else nowhere. */
export function callStream(requestId: RequestId, meta: TaskMeta, caller: Caller): ResponseStream {
  return { requestId, ...(meta.progressToken !== undefined && { progressToken: meta.progressToken }), status: false, related: caller.clientTasks };
}

/**
 * A `tasks/result` stream. The task's own session already hears the task on its GET stream, so
 * there it carries only the response; any other caller gets progress (with the task's original
 * token) and, if its client speaks tasks, status.
 */
export function resultStream(requestId: RequestId, meta: TaskMeta, caller: Caller): ResponseStream {
  if (caller.clientTasks && caller.sessionId !== undefined && meta.sessionId === caller.sessionId) return { requestId, status: false, related: true };
  return { requestId, ...(meta.progressToken !== undefined && { progressToken: meta.progressToken }), status: caller.clientTasks, related: caller.clientTasks };
}
