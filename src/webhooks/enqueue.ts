/**
 * A commit's webhook messages onto the WEBHOOKS queue in sendBatch calls within the Queues limits
 * (src/queues/send-batches.ts), each call retried on its own so a failure repeats nothing already
 * queued. What cannot be queued comes back with its cause, for the task's log: never silent.
 */
import type { WebhookMessage } from "./events";
import { tagged } from "../queues/routing";
import { MESSAGE_BUDGET_BYTES, planSendBatches, queuedBytes } from "../queues/send-batches";
import { taggedQueue } from "../queues/task-queues";

/** The webhooks' binding: needed once a webhook is registered (WEBHOOK_SECRET set), unbound otherwise. */
export interface WebhooksEnv {
  WEBHOOKS?: Queue;
}

/** Webhook events that were not queued, and why. */
export interface LostWebhooks {
  ids: string[];
  cause: string;
}

/** Attempts per sendBatch call: the event exists only in this call until it is queued. */
export const SEND_ATTEMPTS = 3;

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Queues `messages` in order; resolves with what could not be queued (empty when all were). */
export async function enqueueWebhooks(
  queue: Queue | undefined,
  messages: readonly WebhookMessage[],
): Promise<LostWebhooks[]> {
  if (queue === undefined)
    return [
      {
        ids: messages.map((m) => m.id),
        cause:
          'this Worker binds no WEBHOOKS queue: add { "binding": "WEBHOOKS", "queue": "<your-worker>-webhooks" } to "queues.producers" and a consumer in wrangler.jsonc',
      },
    ];
  const { batches, tooLarge } = planSendBatches(messages, (message) => queuedBytes(tagged("webhook", message)));
  const lost: LostWebhooks[] = tooLarge.map(({ body, bytes }) => ({
    ids: [body.id],
    cause:
      `its queue message would be ${bytes} bytes, over the ${MESSAGE_BUDGET_BYTES}-byte budget of one message ` +
      "(Cloudflare Queues: 128 KB a message); publish smaller pieces, or a resource_link to the data",
  }));
  const sender = taggedQueue<WebhookMessage>(queue, "webhook");
  for (const batch of batches) {
    for (let attempt = 1; ; attempt++) {
      try {
        await sender.sendBatch(batch);
        break;
      } catch (error) {
        if (attempt >= SEND_ATTEMPTS) {
          lost.push({
            ids: batch.map((m) => m.id),
            cause: `the queue refused them ${attempt} times: ${errorText(error)}`,
          });
          break;
        }
      }
    }
  }
  return lost;
}

/** A log line for lost events, its cause first: a long list of ids must never push the cause out. */
export function lossLine({ ids, cause }: LostWebhooks): string {
  const which =
    ids.length <= 3 ? `webhook-id ${ids.join(", ")}` : `${ids.length} events, webhook-id ${ids[0]} … ${ids.at(-1)}`;
  return `Webhook events could not be queued for delivery and were not sent: ${cause}. Lost: ${which}.`;
}
