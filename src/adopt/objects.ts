/**
 * The Durable Object classes an adopter exports from its main module (wrangler binds them by class
 * name): TaskObject, one per task, running the tools durableTasks() recorded; PrincipalObject, one
 * index per principal. Both as the template's, wired for the adopter lanes (wiring.ts).
 */
import { TaskObjectBase } from "../core";
import { adopterWiring } from "./wiring";

export { PrincipalObject } from "../principals/principal-object";

/** One Durable Object per task (src/core/object/task-object.ts): bind it as TASKS. */
export class TaskObject extends TaskObjectBase {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env, adopterWiring(env));
  }
}
