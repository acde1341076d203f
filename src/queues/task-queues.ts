/**
 * Where the core's queue port (src/core/queue-port.ts) meets this Worker's Queue bindings: each body
 * leaves tagged with its consumer (routing.ts), as JSON.
 */
import type { MessageQueue, TaskQueues } from "../core";
import { tagged, type QueueKind } from "./routing";

/** `queue` as a MessageQueue whose messages are tagged `kind`. */
export function taggedQueue<Body extends object>(queue: Queue, kind: QueueKind): MessageQueue<Body> {
  return {
    async sendBatch(bodies) {
      await queue.sendBatch(bodies.map((body) => ({ body: tagged(kind, body), contentType: "json" as const })));
    },
  };
}

/** The JOBS and STEPS queues, through the core's port. */
export const taskQueues = (env: Pick<Env, "JOBS" | "STEPS">): TaskQueues => ({
  jobs: taggedQueue(env.JOBS, "job"),
  steps: taggedQueue(env.STEPS, "step"),
});
