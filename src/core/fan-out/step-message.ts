/**
 * The queue message for one fanned-out item: written by the TaskObject, read by the step consumer.
 * It names the item and nothing more: the input stays in the task (it must, to send the item again
 * after a lost message) and comes back with the claim every delivery makes anyway, so a message is
 * about 200 bytes whatever the input's size.
 */
import * as z from "zod";
import { isTaskId } from "../model/ids";

/** Most items one fan-out may have: the messages, rows and results of one task stay bounded. */
export const MAX_FAN_OUT_ITEMS = 10_000;

export const StepMessageSchema = z.object({
  v: z.literal(1),
  principal: z.string().min(1).max(512),
  taskId: z.string().refine(isTaskId, "taskId must be 32 hex characters"),
  fanOut: z.string().min(1).max(1024),
  index: z
    .number()
    .int()
    .min(0)
    .max(MAX_FAN_OUT_ITEMS - 1),
});
export type StepMessage = z.infer<typeof StepMessageSchema>;

/** Cloudflare's limits on one sendBatch call: 100 messages and 256 KB in all. */
export const SEND_BATCH_MAX_MESSAGES = 100;
export const SEND_BATCH_MAX_BYTES = 256 * 1000;

/**
 * Splits message bodies into sendBatch calls within both limits. `bytes` is each body's JSON size;
 * the per-message overhead Cloudflare counts is left as headroom (our messages are ~200 bytes).
 */
export function sendBatches<T>(
  bodies: readonly T[],
  maxMessages = SEND_BATCH_MAX_MESSAGES,
  maxBytes = SEND_BATCH_MAX_BYTES,
): T[][] {
  const batches: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const body of bodies) {
    const size = JSON.stringify(body).length;
    if (current.length > 0 && (current.length >= maxMessages || bytes + size > maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(body);
    bytes += size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
