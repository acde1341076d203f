/** The queue message that dispatches a task's job: written by the TaskObject, read by the consumer. */
import * as z from "zod";
import { isTaskId } from "../model/ids";

export const JobMessageSchema = z.object({
  v: z.literal(1),
  principal: z.string().min(1).max(512),
  taskId: z.string().refine(isTaskId, "taskId must be 32 hex characters"),
  /**
   * Sent after the TaskObject had started the job's run itself: the run holds a lease and the
   * task's alarm restarts it if it dies, so the consumer has nothing left to hand over.
   */
  started: z.literal(true).optional(),
});
export type JobMessage = z.infer<typeof JobMessageSchema>;
