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
