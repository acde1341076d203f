/**
 * Fans task changes out to sessions' GET streams: a task created in a session sends its
 * `notifications/tasks/status` there, and every session subscribed to the task's
 * resource gets `notifications/resources/updated` once per change.
 */
import type { JSONRPCNotification } from "@modelcontextprotocol/sdk/types.js";
import { taskResourceUri } from "../core/ids";
import type { TaskView } from "../core/model";
import type { TaskObserver } from "../core/observers";
import { wireTask } from "./task-messages";
import { sessionObjectName } from "../sessions/ids";

/** Events that change what the task resource shows (log and step lines do not). */
const CHANGES = new Set(["status", "progress", "result"]);

export const sessionObserver: TaskObserver = async ({ env, record, events, watchers }) => {
  const outbox = new Map<string, string[]>();
  const post = (sessionId: string, message: JSONRPCNotification) => {
    const list = outbox.get(sessionId) ?? [];
    list.push(JSON.stringify(message));
    outbox.set(sessionId, list);
  };

  const creator = record.meta["sessionId"];
  if (typeof creator === "string") {
    for (const event of events) {
      if (event.type !== "status") continue;
      post(creator, { jsonrpc: "2.0", method: "notifications/tasks/status", params: wireTask(event.data as unknown as TaskView, record) });
    }
  }
  if (watchers.length > 0 && events.some((event) => CHANGES.has(event.type))) {
    const uri = taskResourceUri(record.taskId);
    for (const sessionId of watchers) post(sessionId, { jsonrpc: "2.0", method: "notifications/resources/updated", params: { uri } });
  }

  await Promise.all(
    [...outbox].map(async ([sessionId, messages]) => {
      await env.SESSIONS.getByName(sessionObjectName(record.principal, sessionId)).publish(messages);
    }),
  );
};
