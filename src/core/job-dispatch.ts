/**
 * The job messages of one isolate's task creations, sent together: the creations of one moment
 * share a `sendBatch` instead of a `send` each. Every send is a write in the queue (locally a commit
 * in Miniflare's queue broker, fsynced on disk), so 200 creations at once cost a few writes, not 200.
 * A message leaves after its task's creation answered, as the TaskObject's own send did.
 */
import type { JobMessage } from "./job-message";

/** What this needs of the JOBS queue. */
export interface JobQueue {
  sendBatch(messages: Iterable<MessageSendRequest<JobMessage>>): Promise<unknown>;
}

/** The queue's limit per sendBatch call. */
const MAX_BATCH = 100;

export class JobDispatch {
  private pending: JobMessage[] = [];
  private flushing: Promise<void> | undefined;

  /** Queues `message` for the next batch; resolves once that batch was sent (or its failure logged). */
  send(queue: JobQueue, message: JobMessage): Promise<void> {
    this.pending.push(message);
    // A zero-delay timer, not a microtask: creations answered in the same moment join the batch.
    this.flushing ??= new Promise<void>((resolve) => setTimeout(resolve, 0)).then(() => this.flush(queue));
    return this.flushing;
  }

  private async flush(queue: JobQueue): Promise<void> {
    const messages = this.pending;
    this.pending = [];
    this.flushing = undefined;
    for (let i = 0; i < messages.length; i += MAX_BATCH) {
      const chunk = messages.slice(i, i + MAX_BATCH);
      try {
        await queue.sendBatch(chunk.map((body) => ({ body, contentType: "json" as const })));
      } catch (error) {
        // The tasks are written and their runs started or armed: their alarms carry them without these.
        console.error("job messages could not be sent; the tasks' alarms start them", chunk.map((m) => m.taskId).join(", "), error);
      }
    }
  }
}
