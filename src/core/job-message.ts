/** The queue message that dispatches a task's job: written by the TaskObject, read by the consumer. */
import * as z from "zod";
import { isTaskId } from "./ids";

export const JobMessageSchema = z.object({
  v: z.literal(1),
  principal: z.string().min(1).max(512),
  taskId: z.string().refine(isTaskId, "taskId must be 32 hex characters"),
});
export type JobMessage = z.infer<typeof JobMessageSchema>;
