/**
 * Where the core's port to the principals' indexes (src/core/principal-index-port.ts) meets this
 * Worker's bindings: each principal's index is its PrincipalObject, named by principalObjectName.
 */
import { principalObjectName, type GatewayBindings, type PrincipalIndexes, type TaskObjectsEnv } from "../core";
import { taskQueues, type QueuesEnv } from "../queues/task-queues";
import type { PrincipalObject } from "./principal-object";

/** The principals' binding: one index per principal. */
export interface PrincipalsEnv {
  PRINCIPALS: DurableObjectNamespace<PrincipalObject>;
}

/** What basic durable tasks bind (docs/api.md): the task objects, the principals' indexes, the job queue (STEPS optional). */
export type GatewayEnv = TaskObjectsEnv & PrincipalsEnv & QueuesEnv;

/** Each principal's PrincipalObject, through the PRINCIPALS binding. */
export const principalIndexes =
  (env: PrincipalsEnv): PrincipalIndexes =>
  (principal) =>
    env.PRINCIPALS.getByName(principalObjectName(principal));

/** What a TaskGateway calls, from the Worker's env: its task objects and job queue, and the principals' indexes. */
export const gatewayBindings = (env: GatewayEnv): GatewayBindings => ({
  env,
  indexes: principalIndexes(env),
  jobs: taskQueues(env).jobs,
});
