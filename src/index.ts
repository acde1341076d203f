/**
 * The composition root: wires the job runner and the task observers into the TaskObject, plugs
 * the MCP adapter into `/mcp`, and exports the Worker's entry points and Durable Object classes.
 * The core (src/core) imports none of what is wired here.
 */
import { env } from "cloudflare:workers";
import { TaskObjectBase, transitionLogObserver, type TaskObjectWiring } from "./core";
import { app, serveMcp } from "./http/app";
import { engineObserver, stopExpiredWork } from "./jobs/engine-observer";
import { stepBatchHandler } from "./jobs/fan-out-consumer";
import { handleJobBatch } from "./jobs/queue-consumer";
import { findStep } from "./jobs/steps";
import { jobRunner } from "./jobs/runner";
import { eraTable, routeByEra } from "./eras";
import { mcp20251125, sessionObserver } from "./mcp-2025-11-25";
import { mcp20260728 } from "./mcp-2026-07-28";
import { principalIndexes } from "./principals/principal-indexes";
import { findTool, tools } from "./tools/registry";
import { webhookObserver } from "./webhooks/webhook-observer";
import { handleWebhookBatch } from "./webhooks/queue-consumer";
import { queueRouter } from "./queues/router";
import { taskQueues } from "./queues/task-queues";

export { SessionObject } from "./sessions/session-object";
export { PrincipalObject } from "./principals/principal-object";
export { RateLimiterObject } from "./limits/rate-limiter-object";
export { PublishReportWorkflow } from "./tools/publish-report-workflow";

const wiring: TaskObjectWiring = {
  runJob: jobRunner(findTool, env),
  observers: [webhookObserver, sessionObserver, transitionLogObserver, engineObserver(findTool)],
  principalIndexes: principalIndexes(env),
  queues: taskQueues(env),
  onExpired: stopExpiredWork(findTool),
};

/** One Durable Object per task (src/core/object/task-object.ts), built with this Worker's runner and observers. */
export class TaskObject extends TaskObjectBase {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env, wiring);
  }
}

// One /mcp for every era, a row each: a request is served by the row of the version it names
// (src/eras); `initialize` and a session's traffic by the session era. A new revision is one more row.
export const ERAS = eraTable([mcp20260728, mcp20251125]);
serveMcp(routeByEra(ERAS), { tools, find: findTool });

const handleStepBatch = stepBatchHandler((tool, step) => findStep(findTool(tool)?.steps, step));

export default {
  fetch: app.fetch,
  // One Worker consumes every queue (and their DLQs): each message goes where its body's tag says,
  // whatever its queue is called (src/queues).
  queue: queueRouter({ job: handleJobBatch, step: handleStepBatch, webhook: handleWebhookBatch }),
} satisfies ExportedHandler<Env>;
