/**
 * Fans task changes out to sessions' GET streams: the session a task was created in hears there
 * what none of its open response streams carries (task-streams.ts says what), and every session
 * subscribed to the task's resource gets `notifications/resources/updated` once per change.
 * Each question put on a GET stream is noted with the task, with its place in the stream's log, so
 * a `tasks/result` that opens later does not ask it again once a reader got it (follow-task.ts).
 */
import type { JSONRPCNotification, JSONRPCRequest } from "@modelcontextprotocol/sdk/types.js";
import { taskResourceUri, type TaskObserver } from "../core";
import { SESSION_WATCH_STATE, sessionObjectName } from "../sessions/ids";
import type { SessionsEnv } from "../sessions/session-object";
import { sessionMessageForEvent } from "./task-messages";
import {
  ASKED_LIVE_STATE,
  AskedLiveSchema,
  RESPONSE_STREAM_STATE,
  SESSION_FEED_STATE,
  SessionFeedSchema,
  takenByResponseStream,
} from "./task-streams";

/** Events that change what the task resource shows (log and step lines do not; a partial piece does). */
const CHANGES = new Set(["status", "progress", "question", "answer", "partial", "result"]);

export const sessionObserver: TaskObserver<Partial<SessionsEnv>> = async ({ env, record, events, state, received }) => {
  // An adopter's Worker has no 2025 endpoint of ours, so no session ever follows its tasks.
  const sessions = env.SESSIONS;
  if (sessions === undefined) return;
  const outbox = new Map<string, { messages: { data: string }[]; questions: { key: string; index: number }[] }>();
  const post = (sessionId: string, message: JSONRPCNotification | JSONRPCRequest, question?: string) => {
    const entry = outbox.get(sessionId) ?? { messages: [], questions: [] };
    if (question !== undefined) entry.questions.push({ key: question, index: entry.messages.length });
    entry.messages.push({ data: JSON.stringify(message) });
    outbox.set(sessionId, entry);
  };

  const feeds = state.list(SESSION_FEED_STATE);
  const streams = feeds.length > 0 ? state.list(RESPONSE_STREAM_STATE) : [];
  for (const { key: sessionId, value } of feeds) {
    const feed = SessionFeedSchema.safeParse(value);
    if (!feed.success) continue;
    for (const event of events) {
      if (takenByResponseStream(event, sessionId, streams)) continue;
      const message = sessionMessageForEvent(event, record.taskId, record.meta, feed.data);
      if (message) post(sessionId, message, event.type === "question" ? event.data.key : undefined);
    }
  }
  const watchers = state.list(SESSION_WATCH_STATE);
  if (watchers.length > 0 && events.some((event) => CHANGES.has(event.type))) {
    const uri = taskResourceUri(record.taskId);
    for (const { key: sessionId } of watchers)
      post(sessionId, { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } });
  }

  await Promise.all(
    [...outbox].map(async ([sessionId, { messages, questions }]) => {
      const published = await sessions
        .getByName(sessionObjectName(record.principal, sessionId))
        .publish(messages.map(({ data }) => data));
      if (questions.length === 0 || published === false) return;
      received();
      // Where each question sits in the GET stream's log: a later tasks/result asks the session
      // whether a reader got it (live, or in a resume's replay) before asking it again.
      const noted = AskedLiveSchema.safeParse(state.lookup(ASKED_LIVE_STATE, sessionId));
      const seqs = { ...(noted.success ? noted.data.seqs : {}) };
      for (const { key, index } of questions) {
        const seq = published.seqs[index];
        if (seq !== undefined) seqs[key] = seq;
      }
      state.attach(ASKED_LIVE_STATE, { keys: noted.success ? noted.data.keys : [], seqs }, sessionId);
    }),
  );
};
