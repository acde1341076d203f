/**
 * Fans task changes out to sessions' GET streams: the session a task was created in hears it
 * there if its client declared tasks (task-streams.ts says what), and every session subscribed to
 * the task's resource gets `notifications/resources/updated` once per change.
 */
import type { JSONRPCNotification } from "@modelcontextprotocol/sdk/types.js";
import { taskResourceUri } from "../core/ids";
import type { TaskObserver } from "../core/ports";
import { SESSION_WATCH_STATE, sessionObjectName } from "../sessions/ids";
import { sessionMessageForEvent } from "./task-messages";
import { SESSION_FEED_STATE, SessionFeedSchema } from "./task-streams";

/** Events that change what the task resource shows (log and step lines do not). */
const CHANGES = new Set(["status", "progress", "result"]);

export const sessionObserver: TaskObserver = async ({ env, record, events, state }) => {
  const outbox = new Map<string, string[]>();
  const post = (sessionId: string, message: JSONRPCNotification) => {
    const list = outbox.get(sessionId) ?? [];
    list.push(JSON.stringify(message));
    outbox.set(sessionId, list);
  };

  for (const { key: sessionId, value } of state.list(SESSION_FEED_STATE)) {
    const feed = SessionFeedSchema.safeParse(value);
    if (!feed.success) continue;
    for (const event of events) {
      const message = sessionMessageForEvent(event, record.taskId, record.meta, feed.data);
      if (message) post(sessionId, message);
    }
  }
  const watchers = state.list(SESSION_WATCH_STATE);
  if (watchers.length > 0 && events.some((event) => CHANGES.has(event.type))) {
    const uri = taskResourceUri(record.taskId);
    for (const { key: sessionId } of watchers) post(sessionId, { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } });
  }

  await Promise.all(
    [...outbox].map(async ([sessionId, messages]) => {
      await env.SESSIONS.getByName(sessionObjectName(record.principal, sessionId)).publish(messages);
    }),
  );
};
