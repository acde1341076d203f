/**
 * Where the core's queue port (src/core/queue-port.ts) meets this Worker's Queue bindings: each body
 * leaves tagged with its consumer (routing.ts), as JSON, in sendBatch calls within the Queues limits
 * (send-batches.ts).
 */
import type { MessageQueue, TaskQueues } from "../core";
import { tagged, type QueueKind } from "./routing";
import { MESSAGE_BUDGET_BYTES, planSendBatches } from "./send-batches";

/**
 * `queue` as a MessageQueue whose messages are tagged `kind`. A body too large for any message is
 * refused before anything is sent, so the caller's retry repeats nothing.
 */
export function taggedQueue<Body extends object>(queue: Queue, kind: QueueKind): MessageQueue<Body> {
  return {
    async sendBatch(bodies) {
      const { batches, tooLarge } = planSendBatches(bodies.map((body) => tagged(kind, body)));
      if (tooLarge.length > 0) {
        const sizes = tooLarge.map((t) => t.bytes).join(", ");
        throw new Error(
          `${tooLarge.length} ${kind} queue message(s) of ${sizes} bytes exceed the ${MESSAGE_BUDGET_BYTES}-byte budget of one ` +
            "queue message (Cloudflare's limit: 128 KB); nothing was sent. Send a reference to the data instead of the data.",
        );
      }
      for (const batch of batches) {
        await queue.sendBatch(batch.map((body) => ({ body, contentType: "json" as const })));
      }
    },
  };
}

const STEPS_UNBOUND =
  'job.fanOut needs the STEPS queue, which this Worker does not bind: add { "binding": "STEPS", "queue": "<your-worker>-steps" } ' +
  'to "queues.producers" and { "queue": "<your-worker>-steps" } to "queues.consumers" in your wrangler config.';

/**
 * STEPS as the port, when bound: an adopter's Worker binds it only if its tools fan out, so without
 * it a fanOut fails its task at once with the lines to add (`unavailable`, read by the job's fanOut),
 * never a TypeError, and never a send the alarm would retry forever.
 */
function stepsQueue(steps: Queue | undefined): TaskQueues["steps"] {
  if (steps !== undefined) return taggedQueue(steps, "step");
  return { unavailable: STEPS_UNBOUND, sendBatch: () => Promise.reject(new Error(STEPS_UNBOUND)) };
}

/** The queues' bindings: JOBS always; STEPS only once a job fans out (stepsQueue). */
export interface QueuesEnv {
  JOBS: Queue;
  STEPS?: Queue;
}

/** The JOBS and STEPS queues, through the core's port (STEPS may be unbound: see stepsQueue). */
export const taskQueues = (env: QueuesEnv): TaskQueues => ({
  jobs: taggedQueue(env.JOBS, "job"),
  steps: stepsQueue(env.STEPS),
});
