/**
 * Which stream carries which message of a task, for a 2025-11-25 client (docs/streams.md,
 * "Who hears what"): decided once, when a stream opens or a task is created, and kept with the
 * task as adapter state, so a resumed stream carries exactly what the live one did and no client
 * hears a message twice.
 */
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
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
  /** The GET stream carries `notifications/tasks/status` (the session's client declared tasks). */
  status: z.boolean(),
  /** It carries the task's progress with this token (task-augmented calls only). */
  progressToken: TokenSchema.optional(),
  /** Its progress carries related-task `_meta` (the client declared tasks). */
  related: z.boolean(),
});
export type SessionFeed = z.infer<typeof SessionFeedSchema>;

/** What a client is: its session (if any) and whether it declared the tasks capability there. */
export interface Caller {
  sessionId?: string;
  clientTasks: boolean;
}

/**
 * A task created by `caller` in a session: its GET stream carries a task-augmented call's progress
 * (the only stream open while such a task runs, and the SDK's task client keeps that token's handler
 * for the task's life) and, if the client declared tasks, the task's status. A plain call's progress
 * stays on the call's own stream: its token dies with the call's response.
 */
export function sessionFeedFor(caller: Caller, meta: TaskMeta, augmented: boolean): AdapterStateEntry[] {
  if (caller.sessionId === undefined) return [];
  const progressToken = augmented ? meta.progressToken : undefined;
  if (!caller.clientTasks && progressToken === undefined) return [];
  const value: SessionFeed = { status: caller.clientTasks, related: caller.clientTasks, ...(progressToken !== undefined && { progressToken }) };
  return [{ kind: SESSION_FEED_STATE, key: caller.sessionId, value }];
}

/** A plain `tools/call`'s own stream: its progress, then its response. Status goes to the GET stream of a client that speaks tasks, else nowhere. */
export function callStream(requestId: RequestId, meta: TaskMeta, caller: Caller): ResponseStream {
  return { requestId, ...(meta.progressToken !== undefined && { progressToken: meta.progressToken }), status: false, related: caller.clientTasks };
}

/**
 * A `tasks/result` stream: the task's progress (with its original token) and, for a client that
 * speaks tasks, its status, except what the caller's GET stream already carries (`feed`, when the
 * task was created in the caller's session).
 */
export function resultStream(requestId: RequestId, meta: TaskMeta, caller: Caller, feed: SessionFeed | undefined): ResponseStream {
  const progressToken = feed?.progressToken === undefined ? meta.progressToken : undefined;
  return { requestId, ...(progressToken !== undefined && { progressToken }), status: caller.clientTasks && !feed?.status, related: caller.clientTasks };
}
