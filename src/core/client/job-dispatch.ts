/**
 * The job messages of one isolate's task creations, sent together: the creations of one moment
 * (of STARTED_WINDOW_MS, for jobs their objects already started) share a `sendBatch` instead of a
 * `send` each. Every send is a write in the queue (locally a commit in Miniflare's queue broker,
 * fsynced on disk), so 200 creations at once cost a few writes, not 200.
 * A message leaves after its task's creation answered, as the TaskObject's own send did.
 *
 * No request awaits another's I/O: on Workers a continuation runs in the I/O context of whoever
 * resolved its promise, and the runtime refuses a response built there (docs/peers.md, the leases'
 * 500). So the creation that schedules a send owns it (its timer, its sendBatch, its waitUntil);
 * one that finds a send already scheduled adds its message to it and has nothing of its own to await.
 */
import type { JobMessage } from "./job-message";
import type { MessageQueue } from "../queue-port";

/** What this needs of the JOBS queue (the core's port: queue-port.ts). */
export type JobQueue = MessageQueue<JobMessage>;

/** The queue's limit per sendBatch call. */
const MAX_BATCH = 100;

/**
 * How long a started job's message waits for others. Nothing waits for it (its object started the
 * run, and the consumer only acks it), so a burst's messages share a few sends instead of one per
 * moment; a message that hands a job over (DISPATCH_GRACE_MS > 0) leaves at once.
 */
export const STARTED_WINDOW_MS = 50;

interface Flush {
  /** When it is due, on this isolate's clock (Date.now). */
  at: number;
}

export class JobDispatch {
  private pending: JobMessage[] = [];
  /** The next flush due; a message due sooner (a hand-over) schedules an earlier one. */
  private next: Flush | undefined;

  /**
   * Queues `message` for the next batch. Resolves once the batch this call scheduled was sent (or its
   * failure logged), or at once when the message joined a batch another creation scheduled: that
   * creation's request sends it, and this one must not await another request's I/O.
   */
  send(queue: JobQueue, message: JobMessage): Promise<void> {
    this.pending.push(message);
    const now = Date.now();
    const at = now + (message.started === true ? STARTED_WINDOW_MS : 0);
    if (this.next !== undefined && this.next.at <= at) return Promise.resolve();
    const flush: Flush = { at };
    this.next = flush;
    // A timer, not a microtask, even at zero delay: creations answered in the same moment join the batch.
    return new Promise<void>((resolve) => setTimeout(resolve, at - now)).then(() => this.flush(queue, flush));
  }

  private async flush(queue: JobQueue, flush: Flush): Promise<void> {
    const messages = this.pending;
    this.pending = [];
    if (this.next === flush) this.next = undefined;
    for (let i = 0; i < messages.length; i += MAX_BATCH) {
      const chunk = messages.slice(i, i + MAX_BATCH);
      try {
        await queue.sendBatch(chunk);
      } catch (error) {
        // The tasks are written and their runs started or armed: their alarms carry them without these.
        console.error(
          "job messages could not be sent; the tasks' alarms start them",
          chunk.map((m) => m.taskId).join(", "),
          error,
        );
      }
    }
  }
}
