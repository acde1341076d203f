/**
 * The TaskObject class a Worker exports (one Durable Object per task), built with the engine's
 * runner and observers over the tools createTaskWorker recorded for this isolate (tool-set.ts).
 */
import { env } from "cloudflare:workers";
import { TaskObjectBase, transitionLogObserver, type TaskObjectWiring } from "../core";
import { engineObserver, stopExpiredWork } from "../jobs/engine-observer";
import { jobRunner } from "../jobs/runner";
import { sessionObserver } from "../mcp-2025-11-25";
import { principalIndexes } from "../principals/principal-indexes";
import { taskQueues } from "../queues/task-queues";
import { webhookObserver } from "../webhooks/webhook-observer";
import { addedTaskObservers } from "./added-observers";
import { toolSet } from "./tool-set";

// Built at the first object's construction (createTaskWorker has run by then: it runs when the main
// module loads), then shared by every object of the isolate, as when it was built at module scope.
let wiring: TaskObjectWiring | undefined;

function taskObjectWiring(): TaskObjectWiring {
  if (wiring) return wiring;
  const { find } = toolSet.recorded();
  wiring = {
    runJob: jobRunner(find, env),
    observers: [webhookObserver, sessionObserver, transitionLogObserver, engineObserver(find), ...addedTaskObservers()],
    principalIndexes: principalIndexes(env),
    queues: taskQueues(env),
    onExpired: stopExpiredWork(find),
  };
  return wiring;
}

/** One Durable Object per task (src/core/object/task-object.ts): export it from your Worker's main module. */
export class TaskObject extends TaskObjectBase {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env, taskObjectWiring());
  }
}
