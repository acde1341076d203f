/**
 * Where the core's port to the principals' indexes (src/core/principal-index-port.ts) meets this
 * Worker's bindings: each principal's index is its PrincipalObject, named by principalObjectName.
 */
import { principalObjectName, type GatewayBindings, type PrincipalIndexes } from "../core";
import { taskQueues } from "../queues/task-queues";

/** Each principal's PrincipalObject, through the PRINCIPALS binding. */
export const principalIndexes =
  (env: Pick<Env, "PRINCIPALS">): PrincipalIndexes =>
  (principal) =>
    env.PRINCIPALS.getByName(principalObjectName(principal));

/** What a TaskGateway calls, from the Worker's env: its task objects and job queue, and the principals' indexes. */
export const gatewayBindings = (env: Pick<Env, "TASKS" | "JOBS" | "STEPS" | "PRINCIPALS">): GatewayBindings => ({
  env,
  indexes: principalIndexes(env),
  jobs: taskQueues(env).jobs,
});
