/**
 * The task observer that turns a task's committed events into webhook deliveries on the
 * WEBHOOKS queue. It only enqueues (milliseconds), so delivery never delays or fails the task.
 */
import { taskObjectName, isTerminal, type TaskObserver } from "../core";
import { webhookMessagesFor } from "./events";
import { storedWebhook } from "./registration";
import { taggedQueue } from "../queues/task-queues";

/**
 * When each task last produced a progress webhook. It lives with the TaskObject's isolate:
 * after an eviction the throttle restarts, which can let one extra progress event through.
 */
const lastProgress = new Map<string, number>();
const SEND_ATTEMPTS = 3;

export const webhookObserver: TaskObserver = async ({ env, record, events }) => {
  const webhook = storedWebhook(record.meta.webhook);
  if (!webhook) return;
  const { messages, lastProgressAt } = webhookMessagesFor(record, events, webhook, lastProgress.get(record.taskId));
  if (isTerminal(record.status)) lastProgress.delete(record.taskId);
  else if (lastProgressAt !== undefined) lastProgress.set(record.taskId, lastProgressAt);
  if (messages.length === 0) return;
  // A failed send is retried at once: the event exists only in this call until it is queued.
  for (let attempt = 1; ; attempt++) {
    try {
      await taggedQueue(env.WEBHOOKS, "webhook").sendBatch(messages);
      return;
    } catch (error) {
      if (attempt >= SEND_ATTEMPTS) {
        // Record the loss on the task itself (a call back into this object), so it is never silent.
        const ids = messages.map((m) => m.id).join(", ");
        console.error("webhook enqueue failed", record.taskId, ids, error);
        await env.TASKS.getByName(taskObjectName(record.principal, record.taskId)).appendLog(
          "error",
          `Webhook events ${ids} could not be queued for delivery: ${String(error)}`,
        );
        return;
      }
    }
  }
};
