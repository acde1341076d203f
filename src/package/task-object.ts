/**
 * The TaskObject class a Worker exports (one Durable Object per task), built with the engine's
 * runner and observers over the tools createTaskWorker recorded for this isolate (tool-set.ts).
 */
import { TaskObjectBase, transitionLogObserver, type TaskObjectWiring } from "../core";
import { engineObserver, stopExpiredWork } from "../jobs/engine-observer";
import { jobRunner } from "../jobs/runner";
// The observer alone, not the adapter's face: an adopter's TaskObject then bundles no 2025 endpoint.
import { sessionObserver } from "../mcp-2025-11-25/session-observer";
import { principalIndexes, type GatewayEnv } from "../principals/principal-indexes";
import { taskQueues } from "../queues/task-queues";
import type { SessionsEnv } from "../sessions/session-object";
import type { WebhooksEnv } from "../webhooks/enqueue";
import { webhookObserver } from "../webhooks/webhook-observer";
import type { EventsEnv } from "../events/event-logs";
import { addedJobEmitter, addedTaskObservers } from "./added-observers";
import { toolSet } from "./tool-set";
import { callerResolver } from "./caller-resolver";

/**
 * What a TaskObject reads of its Worker's env: basic tasks' bindings (docs/api.md), WEBHOOKS and the
 * template's SESSIONS when bound, and the Worker's own declared env (a Workflow-backed tool's binding).
 */
export type TaskObjectEnv = GatewayEnv & WebhooksEnv & EventsEnv & Partial<SessionsEnv> & Cloudflare.Env;

// Built at the first object's construction (createTaskWorker has run by then: it runs when the main
// module loads), then shared by every object of the isolate: each is handed the isolate's one env.
let wiring: TaskObjectWiring<TaskObjectEnv> | undefined;

function taskObjectWiring(env: TaskObjectEnv): TaskObjectWiring<TaskObjectEnv> {
  if (wiring) return wiring;
  const { find } = toolSet.recorded();
  wiring = {
    runJob: jobRunner(find, env, addedJobEmitter(env), callerResolver.recorded),
    observers: [webhookObserver, sessionObserver, transitionLogObserver, engineObserver(find), ...addedTaskObservers()],
    principalIndexes: principalIndexes(env),
    queues: taskQueues(env),
    onExpired: stopExpiredWork(find),
  };
  return wiring;
}

/** One Durable Object per task (src/core/object/task-object.ts): export it from your Worker's main module. */
export class TaskObject extends TaskObjectBase<TaskObjectEnv> {
  constructor(ctx: DurableObjectState, env: TaskObjectEnv) {
    super(ctx, env, taskObjectWiring(env));
  }
}
