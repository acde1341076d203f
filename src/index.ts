/**
 * The Worker's exports: the HTTP entry (hono), the queue consumer, and the Durable Object classes.
 */
import { app } from "./http/app";
import { handleJobBatch } from "./jobs/queue-consumer";

export { TaskObject } from "./tasks/task-object";
export { SessionObject } from "./sessions/session-object";
export { PrincipalObject } from "./principals/principal-object";

export default {
  fetch: app.fetch,
  queue: handleJobBatch,
} satisfies ExportedHandler<Env>;
