/**
 * The task observer that turns a task's committed events into webhook deliveries on the
 * WEBHOOKS queue. It only enqueues (milliseconds), so delivery never delays or fails the task.
 */
import { taskObjectName, isTerminal, type TaskObjectsEnv, type TaskObserver } from "../core";
import { webhookMessagesFor } from "./events";
import { enqueueWebhooks, lossLine, type WebhooksEnv } from "./enqueue";
import { storedWebhook } from "./registration";

/**
 * When each task last produced a progress webhook. It lives with the TaskObject's isolate:
 * after an eviction the throttle restarts, which can let one extra progress event through.
 */
const lastProgress = new Map<string, number>();

export const webhookObserver: TaskObserver<TaskObjectsEnv & WebhooksEnv> = async ({ env, record, events }) => {
  const webhook = storedWebhook(record.meta.webhook);
  if (!webhook) return;
  const { messages, lastProgressAt } = webhookMessagesFor(record, events, webhook, lastProgress.get(record.taskId));
  if (isTerminal(record.status)) lastProgress.delete(record.taskId);
  else if (lastProgressAt !== undefined) lastProgress.set(record.taskId, lastProgressAt);
  if (messages.length === 0) return;
  const lost = await enqueueWebhooks(env.WEBHOOKS, messages);
  for (const loss of lost) {
    // Recorded on the task itself (a call back into this object), so a loss is never silent.
    const line = lossLine(loss);
    console.error("webhook enqueue failed", record.taskId, line);
    await env.TASKS.getByName(taskObjectName(record.principal, record.taskId)).appendLog("error", line);
  }
};
