/**
 * The Worker's exports: the HTTP entry (hono), the queue consumer, and the Durable Object classes.
 */
import { app } from "./http/app";
import { handleJobBatch } from "./jobs/queue-consumer";
import { handleWebhookBatch, isWebhookQueue } from "./webhooks/queue-consumer";

export { TaskObject } from "./core/task-object";
export { SessionObject } from "./sessions/session-object";
export { PrincipalObject } from "./principals/principal-object";
export { RateLimiterObject } from "./limits/rate-limiter-object";

export default {
  fetch: app.fetch,
  // One Worker consumes both queues (and their DLQs): route each batch by its queue name.
  queue: (batch, env) => (isWebhookQueue(batch.queue) ? handleWebhookBatch(batch, env) : handleJobBatch(batch, env)),
} satisfies ExportedHandler<Env>;
