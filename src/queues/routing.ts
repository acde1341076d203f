/**
 * How a queue message finds its consumer: by a tag in its body, never by its queue's name (names are
 * per account, so a second deployment renames its queues: docs/queues.md). The senders tag each body
 * (task-queues.ts, the webhook observer); the Worker's queue() handler reads the tag with zod.
 */
import * as z from "zod";

export const QUEUE_KINDS = ["job", "step", "webhook"] as const;
export type QueueKind = (typeof QUEUE_KINDS)[number];

/** The body's field that names its consumer; the rest of the body is that consumer's to parse. */
export const QUEUE_TAG = "queue";

const TaggedSchema = z.looseObject({ [QUEUE_TAG]: z.enum(QUEUE_KINDS) });

/** `body` with its consumer's tag, as it goes on a queue. */
export const tagged = <Body extends object>(kind: QueueKind, body: Body): Body & { queue: QueueKind } => ({
  ...body,
  [QUEUE_TAG]: kind,
});

/** The consumer a message names, or undefined for a body without a known tag. */
export function kindOf(body: unknown): QueueKind | undefined {
  const parsed = TaggedSchema.safeParse(body);
  return parsed.success ? parsed.data[QUEUE_TAG] : undefined;
}

/**
 * A dead-letter queue is told by its name's `-dlq` ending, the one thing about names this Worker
 * relies on: its messages are the same bodies, and no binding says which queue a batch came from.
 * test/e2e/deploy-config.test.ts holds wrangler.toml to it (every dead-letter queue ends so, no other does).
 */
export const DEAD_LETTER_SUFFIX = "-dlq";
export const isDeadLetterQueue = (queue: string): boolean => queue.endsWith(DEAD_LETTER_SUFFIX);
