/**
 * The Worker's queue() handler: one Worker consumes every queue (and their dead-letter queues), and
 * each message goes to the consumer its body's tag names (routing.ts), whatever its queue is called;
 * a body without the tag goes by the shape the previous release wrote (untagged.ts). Any other body
 * falls under the one rule for unreadable messages (unreadable.ts), as a malformed body does in its consumer.
 */
import type { TaskObjectsEnv } from "../core";
import { kindOf, type QueueKind } from "./routing";
import { untaggedKindOf } from "./untagged";
import { handleUnreadable } from "./unreadable";

/** A consumer of one kind of message: the batch holds only that kind's messages. */
export type BatchHandler = (batch: MessageBatch<unknown>, env: TaskObjectsEnv) => Promise<void>;

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

const NO_CONSUMER =
  "its body names no consumer this Worker knows (no known `queue` tag) and has none of the shapes the previous release sent untagged";

export function queueRouter(handlers: Record<QueueKind, BatchHandler>): BatchHandler {
  return async (batch, env) => {
    const byKind = new Map<QueueKind, Message<unknown>[]>();
    const unreadable: Promise<void>[] = [];
    for (const message of batch.messages) {
      const kind = kindOf(message.body) ?? untaggedKindOf(message.body);
      if (kind === undefined) {
        unreadable.push(handleUnreadable(message, batch.queue, NO_CONSUMER, env));
        continue;
      }
      byKind.set(kind, [...(byKind.get(kind) ?? []), message]);
    }
    await Promise.all([
      ...unreadable,
      ...[...byKind].map(([kind, messages]) => handlers[kind](subBatch(batch, messages), env)),
    ]);
  };
}
