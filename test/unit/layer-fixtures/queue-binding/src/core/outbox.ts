// Breaks core-no-queue-binding twice: it imports the queue adapter, and it sends to a Queue binding itself.
import { tagged } from "../queues/routing";

export const sendSteps = (env: Pick<Env, "STEPS">, bodies: object[]) =>
  env.STEPS.sendBatch(bodies.map((body) => ({ body: tagged("step", body) })));
