/**
 * The webhook queue's consumer: one signed attempt per message, every attempt and its
 * outcome written to the task's log, retries with exponential backoff through the queue,
 * and an event that exhausts its attempts recorded on the task (and in the worker log).
 * The dead-letter queue catches what the consumer itself could not handle; a malformed body falls
 * under the one rule for unreadable messages (src/queues/unreadable.ts).
 */
import * as z from "zod";
import { isTaskId, taskObjectName, type TaskObjectsEnv } from "../core";
import { attemptDelivery } from "./deliver";
import { readSettings, type WebhookSettings } from "../config";
import { webhookRetryDelaySeconds } from "./settings";
import { isDeadLetterQueue } from "../queues/routing";
import { MESSAGE_BUDGET_BYTES } from "../queues/send-batches";
import { handleUnreadable, schemaProblem } from "../queues/unreadable";

const WebhookMessageSchema = z.object({
  v: z.literal(1),
  id: z.string().min(1).max(200),
  principal: z.string().min(1).max(512),
  taskId: z.string().refine(isTaskId, "taskId must be 32 hex characters"),
  url: z.string().min(1).max(2048),
  type: z.string().min(1).max(64),
  // Whatever fits one queue message (the observer measures it: src/queues/send-batches.ts).
  body: z.string().max(MESSAGE_BUDGET_BYTES),
});
type WebhookMessage = z.infer<typeof WebhookMessageSchema>;

type LogLevel = "info" | "warning" | "error";
const LOG_TIMEOUT_MS = 5000;

export async function handleWebhookBatch(batch: MessageBatch<unknown>, env: TaskObjectsEnv): Promise<void> {
  const settings = readSettings(env).webhooks;
  const deadLetters = isDeadLetterQueue(batch.queue);
  // Attempts run concurrently: one slow receiver (up to the 10 s timeout) never holds the others back.
  await Promise.all(batch.messages.map((message) => handleMessage(message, env, settings, batch.queue, deadLetters)));
}

async function handleMessage(
  message: Message<unknown>,
  env: TaskObjectsEnv,
  settings: WebhookSettings,
  queue: string,
  deadLetters: boolean,
): Promise<void> {
  const parsed = WebhookMessageSchema.safeParse(message.body);
  if (!parsed.success) {
    await handleUnreadable(message, queue, schemaProblem("webhook", parsed.error), env);
    return;
  }
  const hook = parsed.data;
  const log = async (level: LogLevel, text: string): Promise<void> => {
    console.log(`webhook ${hook.taskId} ${level}: ${text}`);
    try {
      // Bounded: a busy or unreachable task object must not hold up the delivery decision.
      const logged = env.TASKS.getByName(taskObjectName(hook.principal, hook.taskId)).appendLog(level, text);
      await Promise.race([
        logged,
        new Promise((_, reject) => setTimeout(() => reject(new Error("appendLog timed out")), LOG_TIMEOUT_MS)),
      ]);
    } catch (error) {
      console.error("could not record webhook attempt on the task", hook.taskId, error);
    }
  };
  const what = `Webhook ${hook.type} (webhook-id ${hook.id}) to ${destinationLabel(hook)}`;

  if (deadLetters) {
    await log("error", `${what} was given up by the queue after ${message.attempts} deliveries; it was not delivered.`);
    message.ack();
    return;
  }
  const attempt = message.attempts;
  const max = settings.maxAttempts;
  const outcome = await attemptDelivery(hook, settings);
  if (outcome.ok) {
    await log(
      "info",
      `${what}: delivered on attempt ${attempt} of ${max} (HTTP ${outcome.status} in ${outcome.ms} ms).`,
    );
    message.ack();
    return;
  }
  if (outcome.permanent || attempt >= max) {
    const why = outcome.permanent ? "it cannot succeed" : `all ${max} attempts failed`;
    console.error("webhook given up", hook.taskId, hook.id, outcome.detail);
    await log(
      "error",
      `${what}: attempt ${attempt} of ${max} failed: ${outcome.detail}. Given up because ${why}; the event was not delivered.`,
    );
    message.ack();
    return;
  }
  const delaySeconds = webhookRetryDelaySeconds(attempt, settings.retryBaseSeconds);
  await log(
    "warning",
    `${what}: attempt ${attempt} of ${max} failed: ${outcome.detail}. Retrying in ${delaySeconds} s.`,
  );
  message.retry({ delaySeconds });
}

/** The scheme, host and port only: paths and queries may carry the receiver's own secrets. */
function destinationLabel(hook: WebhookMessage): string {
  try {
    return new URL(hook.url).origin;
  } catch {
    return "(invalid URL)";
  }
}
