/**
 * Which stream carries which message of a task, for a 2025-11-25 client (docs/streams.md,
 * "Who hears what"). The rule: a message of a task reaches the session it was created in on ONE
 * stream: a response stream of that session (a `tasks/result`, or the plain call's own stream)
 * if one that carries that kind of message was open when the event was committed, else the
 * session's GET stream. "Open when committed" is decided by the task's own clock: each registered
 * stream is adapter state with spans of event sequence numbers (core/object/adapter-state.ts), written in
 * the TaskObject's single thread, so every event falls on exactly one side. What a stream carries
 * is decided when it opens and kept with it, so a resumed stream carries exactly what the live one did.
 */
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { isOpenAt, type AdapterStateEntry, type OpenStateEntry, type TaskEvent, type TaskMeta } from "../core";

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
  /** It carries the task's questions as `elicitation/create` requests (its client declared elicitation). */
  questions: z.boolean().default(false),
  /** The session it was opened in: a stream of the task's own session takes messages from its GET stream while open. */
  sessionId: z.string().optional(),
  /** The last event it carries, once it ended before the task did (a plain call's inline wait ran out). */
  endSeq: z.number().int().optional(),
});
export type ResponseStream = z.infer<typeof ResponseStreamSchema>;

/** The session a task was created in follows it on its GET stream (key: the session id). */
export const SESSION_FEED_STATE = "mcp-2025-11-25/session";
export const SessionFeedSchema = z.object({
  /** The GET stream carries the task's progress with this token (task-augmented calls only). */
  progressToken: TokenSchema.optional(),
  /** The client declared tasks: status notifications, and related-task `_meta` on progress. */
  tasks: z.boolean().default(true),
  /** The client declared elicitation: the task's questions, as `elicitation/create` requests. */
  questions: z.boolean().default(false),
});
export type SessionFeed = z.infer<typeof SessionFeedSchema>;

/**
 * The questions the session's GET stream carried (key: the session id): `seqs` gives each one's
 * place in the stream's log, which the SessionObject says whether a reader got (live, or in a
 * resume's replay); `keys` are those an earlier version noted as reaching a live reader.
 */
export const ASKED_LIVE_STATE = "mcp-2025-11-25/asked-live";
export const AskedLiveSchema = z.object({
  keys: z.array(z.string()).default([]),
  seqs: z.record(z.string(), z.number()).default({}),
});

/** What a client is: its session (if any) and what it declared there. */
export interface Caller {
  sessionId?: string;
  clientTasks: boolean;
  clientElicitation: boolean;
}

/**
 * A task created by `caller` in a session: its GET stream carries the task's messages no response
 * stream of the session carries. For a task-augmented call that includes its progress, whatever the
 * client declared (its token stays valid for the task's life); a plain call's progress stays on the
 * call's own stream, its token dying with the call's response. Status only for a client that
 * declared tasks, questions only for one that declared elicitation.
 */
export function sessionFeedFor(caller: Caller, meta: TaskMeta, augmented: boolean): AdapterStateEntry[] {
  if (caller.sessionId === undefined) return [];
  const progressToken = augmented ? meta.progressToken : undefined;
  if (progressToken === undefined && !caller.clientTasks && !caller.clientElicitation) return [];
  const value: SessionFeed = {
    ...(progressToken !== undefined && { progressToken }),
    tasks: caller.clientTasks,
    questions: caller.clientElicitation,
  };
  return [{ kind: SESSION_FEED_STATE, key: caller.sessionId, value }];
}

/** A plain `tools/call`'s own stream: its progress, its questions (if the client can answer them), then its response. Status goes to the GET stream. */
export function callStream(requestId: RequestId, meta: TaskMeta, caller: Caller): ResponseStream {
  return {
    requestId,
    ...(meta.progressToken !== undefined && { progressToken: meta.progressToken }),
    status: false,
    related: caller.clientTasks,
    questions: caller.clientElicitation,
    ...(caller.sessionId !== undefined && { sessionId: caller.sessionId }),
  };
}

/** A `tasks/result` stream: progress (with the task's original token), status if the client speaks tasks, questions if it can answer them. */
export function resultStream(requestId: RequestId, meta: TaskMeta, caller: Caller): ResponseStream {
  return {
    requestId,
    ...(meta.progressToken !== undefined && { progressToken: meta.progressToken }),
    status: caller.clientTasks,
    related: caller.clientTasks,
    questions: caller.clientElicitation,
    ...(caller.sessionId !== undefined && { sessionId: caller.sessionId }),
  };
}

/** Whether a stream carries an event of this type at all. */
export function carries(
  stream: Pick<ResponseStream, "progressToken" | "status" | "questions">,
  type: TaskEvent["type"],
): boolean {
  switch (type) {
    case "progress":
      return stream.progressToken !== undefined;
    case "status":
      return stream.status;
    case "question":
      return stream.questions;
    default:
      return false;
  }
}

/** A stream of the task's own session takes an event from the GET stream only while it was open; any other stream carries them all. */
export function ownSessionStream(stream: ResponseStream, meta: TaskMeta): boolean {
  return stream.sessionId !== undefined && stream.sessionId === meta.sessionId;
}

/**
 * Whether an event of the task's session goes to one of the session's response streams instead of
 * its GET stream: a stream of that session that carries its kind was open when it was committed.
 */
export function takenByResponseStream(
  event: TaskEvent,
  sessionId: string,
  streams: readonly OpenStateEntry[],
): boolean {
  return streams.some(({ value, spans }) => {
    const stream = ResponseStreamSchema.safeParse(value);
    return (
      stream.success &&
      stream.data.sessionId === sessionId &&
      carries(stream.data, event.type) &&
      isOpenAt(spans, event.seq)
    );
  });
}
