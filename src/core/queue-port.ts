/**
 * The queues as the core sends to them (a port): a task's job message, a fan-out's item messages.
 * src/queues implements it over the Queue bindings and src/index.ts wires it in, so the core names
 * no binding and knows nothing of how a message finds its consumer (a tag the adapter adds).
 */
import type { JobMessage } from "./client/job-message";
import type { StepMessage } from "./fan-out/step-message";

/** One queue the core sends to. */
export interface MessageQueue<Body> {
  /** Sends every body, in as many calls as the queue's limits need (src/queues/send-batches.ts); rejects if one failed. */
  sendBatch(bodies: readonly Body[]): Promise<void>;
}

/** Every queue the core sends to. */
export interface TaskQueues {
  /** The dispatch of record of each task's job (client/gateway.ts, the queue consumer). */
  jobs: MessageQueue<JobMessage>;
  /**
   * One message per fanned-out item (object/outbox.ts, the step consumer). `unavailable` says why no
   * message can ever be sent (its queue is not bound), so a fan-out fails its task with those words
   * at once instead of the alarm retrying a send that cannot succeed.
   */
  steps: MessageQueue<StepMessage> & { readonly unavailable?: string };
}
