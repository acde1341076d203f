/**
 * The engine as an adopter's Worker runs it: the TaskObject's wiring and the queue consumer, over
 * the tools durableTasks() recorded for the isolate (tool-set.ts). No 2025 session observer: the
 * createMcpHandler lane is stateless, so no task it creates follows a session.
 */
import { transitionLogObserver, type MessageQueue, type StepMessage, type TaskObjectWiring } from "../core";
import { engineObserver, stopExpiredWork } from "../jobs/engine-observer";
import { stepBatchHandler } from "../jobs/fan-out-consumer";
import { handleJobBatch } from "../jobs/queue-consumer";
import { jobRunner } from "../jobs/runner";
import { principalIndexes } from "../principals/principal-indexes";
import { queueRouter, type BatchHandler } from "../queues/router";
import { taggedQueue } from "../queues/task-queues";
import { handleWebhookBatch } from "../webhooks/queue-consumer";
import { webhookObserver } from "../webhooks/webhook-observer";
import { agentSessionObserver } from "./mcp-agent-observer";
import { findRecordedStep, findRecordedTool } from "./tool-set";

/** STEPS is bound only by Workers whose tools fan out: without it, a fanOut fails with the line to add. */
function stepsQueue(env: Env): MessageQueue<StepMessage> {
  const queue: unknown = Reflect.get(env, "STEPS");
  if (queue !== undefined) return taggedQueue(env.STEPS, "step");
  return {
    sendBatch: () =>
      Promise.reject(
        new Error(
          'job.fanOut needs the STEPS queue: add { "binding": "STEPS", "queue": "<your-worker>-steps" } to "queues.producers" and a consumer of that queue to "queues.consumers" in wrangler.jsonc.',
        ),
      ),
  };
}

export function adopterWiring(env: Env): TaskObjectWiring {
  return {
    runJob: jobRunner(findRecordedTool, env),
    observers: [webhookObserver, transitionLogObserver, engineObserver(findRecordedTool), agentSessionObserver],
    principalIndexes: principalIndexes(env),
    queues: { steps: stepsQueue(env) },
    onExpired: stopExpiredWork(findRecordedTool),
  };
}

/** One consumer for every queue the engine sends to (jobs, fanned-out steps, webhooks), by each message's tag. */
export const adopterQueue: BatchHandler = queueRouter({
  job: handleJobBatch,
  step: stepBatchHandler(findRecordedStep),
  webhook: handleWebhookBatch,
});
