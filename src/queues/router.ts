/**
 * The Worker's queue() handler: one Worker consumes every queue (and their dead-letter queues), and
 * each message goes to the consumer its body's tag names (routing.ts), whatever its queue is called.
 * A message without a known tag is never acknowledged: it is logged and retried, so it ends in the
 * dead-letter queue (and its log) rather than vanishing.
 */
import { kindOf, type QueueKind } from "./routing";

/** A consumer of one kind of message: the batch holds only that kind's messages. */
export type BatchHandler = (batch: MessageBatch<unknown>, env: Env) => Promise<void>;

/** How long an untagged message waits before it comes back (a Worker version that knows its tag may be rolling out). */
export const UNKNOWN_RETRY_SECONDS = 30;

/** The part of `batch` whose messages are `messages`, as a batch of its own. */
function subBatch(batch: MessageBatch<unknown>, messages: readonly Message<unknown>[]): MessageBatch<unknown> {
  return {
    queue: batch.queue,
    metadata: batch.metadata,
    messages,
    retryAll: (options) => {
      for (const message of messages) message.retry(options);
    },
    ackAll: () => {
      for (const message of messages) message.ack();
    },
  };
}

export function queueRouter(handlers: Record<QueueKind, BatchHandler>): BatchHandler {
  return async (batch, env) => {
    const byKind = new Map<QueueKind, Message<unknown>[]>();
    for (const message of batch.messages) {
      const kind = kindOf(message.body);
      if (kind === undefined) {
        const { id, attempts } = message;
        console.error(
          JSON.stringify({ event: "queue.unknown_message", queue: batch.queue, id, attempts }),
          "a queue message names no consumer this Worker knows (its body's `queue` tag): retried, not dropped",
        );
        message.retry({ delaySeconds: UNKNOWN_RETRY_SECONDS });
        continue;
      }
      byKind.set(kind, [...(byKind.get(kind) ?? []), message]);
    }
    await Promise.all([...byKind].map(([kind, messages]) => handlers[kind](subBatch(batch, messages), env)));
  };
}
