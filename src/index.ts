/**
 * The composition root: wires the job runner and the task observers into the TaskObject, plugs
 * the MCP adapter into `/mcp`, and exports the Worker's entry points and Durable Object classes.
 * The core (src/core) imports none of what is wired here.
 */
import { env } from "cloudflare:workers";
import { TaskObjectBase } from "./core/task-object";
import { transitionLogObserver } from "./core/transition-log";
import type { TaskObjectWiring } from "./core/ports";
import { app, serveMcp } from "./http/app";
import { engineObserver, stopExpiredWork } from "./jobs/engine-observer";
import { isStepQueue, stepBatchHandler } from "./jobs/fan-out-consumer";
import { handleJobBatch } from "./jobs/queue-consumer";
import { findStep } from "./jobs/steps";
import { jobRunner } from "./jobs/runner";
import { mcp20251125, sessionObserver } from "./mcp-2025-11-25";
import { withModernEra } from "./mcp-2026-07-28";
import { findTool } from "./tools/registry";
import { webhookObserver } from "./webhooks/webhook-observer";
import { handleWebhookBatch, isWebhookQueue } from "./webhooks/queue-consumer";

export { SessionObject } from "./sessions/session-object";
export { PrincipalObject } from "./principals/principal-object";
export { RateLimiterObject } from "./limits/rate-limiter-object";
export { PublishReportWorkflow } from "./tools/publish-report-workflow";

const wiring: TaskObjectWiring = {
  runJob: jobRunner(findTool, env),
  observers: [webhookObserver, sessionObserver, transitionLogObserver, engineObserver(findTool)],
  onExpired: stopExpiredWork(findTool),
};

/** One Durable Object per task (src/core/task-object.ts), built with this Worker's runner and observers. */
export class TaskObject extends TaskObjectBase {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env, wiring);
  }
}

// One /mcp for both eras: a request claiming 2026-07-28 in its _meta is served by that adapter, the rest by 2025-11-25's.
serveMcp(withModernEra(mcp20251125));

const handleStepBatch = stepBatchHandler((tool, step) => findStep(findTool(tool)?.steps, step));

export default {
  fetch: app.fetch,
  // One Worker consumes every queue (and their DLQs): route each batch by its queue name.
  queue: (batch, env) =>
    isWebhookQueue(batch.queue) ? handleWebhookBatch(batch, env) : isStepQueue(batch.queue) ? handleStepBatch(batch, env) : handleJobBatch(batch, env),
} satisfies ExportedHandler<Env>;
