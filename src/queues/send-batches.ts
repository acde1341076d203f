/**
 * Queue messages split into sendBatch calls within Cloudflare's limits, measured the way the Queues
 * API counts them. Documented at https://developers.cloudflare.com/queues/platform/limits/ (a
 * message ≤ 128 KB, 1 KB being 1,000 bytes, "up to ~100 bytes of internal metadata" counted with it)
 * and https://developers.cloudflare.com/queues/configuration/javascript-apis/ (a sendBatch call:
 * ≤ 100 messages, ≤ 256 KB in all). Past either, the whole call fails (locally:
 * "Unknown Internal Error (15000)"), so one commit's webhooks once vanished together (issue 41).
 */

/** The documented limits, in bytes (1 KB = 1,000 bytes). */
export const QUEUE_LIMITS = {
  messagesPerBatch: 100,
  batchBytes: 256_000,
  messageBytes: 128_000,
  /** Metadata the API counts with each body ("up to ~100 bytes"). */
  metadataBytes: 100,
} as const;

/** We keep 10 % under each byte limit: the metadata figure is the docs' estimate, not a contract. */
const SAFETY = 0.9;
export const BATCH_BUDGET_BYTES = Math.floor(QUEUE_LIMITS.batchBytes * SAFETY);
export const MESSAGE_BUDGET_BYTES = Math.floor(QUEUE_LIMITS.messageBytes * SAFETY);

const utf8 = new TextEncoder();

/**
 * A body's size as the Queues API counts it: a `contentType: "json"` body travels as its JSON text,
 * so its UTF-8 bytes (not its UTF-16 length: "é" is 2 bytes, "😀" 4), plus the message's metadata.
 */
export const queuedBytes = (body: unknown): number =>
  utf8.encode(JSON.stringify(body)).length + QUEUE_LIMITS.metadataBytes;

/** A body no sendBatch call can carry, with its measured size. */
export interface TooLarge<T> {
  body: T;
  bytes: number;
}

export interface SendPlan<T> {
  /** sendBatch calls, in order, each within the count and byte budgets. */
  batches: T[][];
  /** Bodies over the one-message budget: never sent (the caller says what becomes of them). */
  tooLarge: TooLarge<T>[];
}

/** `bodies` as sendBatch calls in their order, each ≤ 100 messages and ≤ BATCH_BUDGET_BYTES. */
export function planSendBatches<T>(bodies: readonly T[], measure: (body: T) => number = queuedBytes): SendPlan<T> {
  const batches: T[][] = [];
  const tooLarge: TooLarge<T>[] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const body of bodies) {
    const size = measure(body);
    if (size > MESSAGE_BUDGET_BYTES) {
      tooLarge.push({ body, bytes: size });
      continue;
    }
    if (current.length >= QUEUE_LIMITS.messagesPerBatch || bytes + size > BATCH_BUDGET_BYTES) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(body);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return { batches, tooLarge };
}
