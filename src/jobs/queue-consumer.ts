/**
 * The queue consumer. It does not run jobs: it hands each one to its TaskObject (whose
 * alarm runs it), so a batch ends in milliseconds and a long job never delays another
 * task, even in local dev where Miniflare delivers one batch at a time.
 * A failed hand-over is retried with backoff; the dead-letter queue fails the task. A malformed
 * body falls under the one rule for unreadable messages (src/queues/unreadable.ts).
 */
import { backoff, taskObjectName, JobMessageSchema, type TaskObjectsEnv } from "../core";
import { isDeadLetterQueue } from "../queues/routing";
import { handleUnreadable, schemaProblem } from "../queues/unreadable";

/** Exponential backoff for a failed hand-over, capped at 5 minutes. */
export const deliveryRetryDelaySeconds = (attempts: number): number => backoff(attempts, 1, 300);

export async function handleJobBatch(batch: MessageBatch<unknown>, env: TaskObjectsEnv): Promise<void> {
  const deadLetters = isDeadLetterQueue(batch.queue);
  await Promise.all(
    batch.messages.map(async (message) => {
      const parsed = JobMessageSchema.safeParse(message.body);
      if (!parsed.success) {
        await handleUnreadable(message, batch.queue, schemaProblem("job", parsed.error), env);
        return;
      }
      // The object started the run itself before sending this: its lease and alarm carry it from here.
      if (parsed.data.started && !deadLetters) {
        message.ack();
        return;
      }
      const stub = env.TASKS.getByName(taskObjectName(parsed.data.principal, parsed.data.taskId));
      try {
        if (deadLetters) {
          await stub.failDelivery(
            `The job could not be started: its queue message exhausted its delivery retries (last attempt ${message.attempts}).`,
          );
        } else {
          await stub.deliver();
        }
        message.ack();
      } catch (error) {
        console.error("job hand-over failed; retrying", parsed.data.taskId, error);
        message.retry({ delaySeconds: deliveryRetryDelaySeconds(message.attempts) });
      }
    }),
  );
}
