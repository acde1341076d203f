/**
 * A bench-only build of the Worker (bench/scale.bench.ts starts it in place of src/index.ts): the
 * same app and objects, with every binding, storage call and handler counted (instrument.ts), and
 * routes of its own: `GET /__scale` returns the counters, `POST /__scale` resets them, and
 * `GET /__scale/bytes?principal=&taskId=` is the size of that task's database.
 * Nothing here is in the Worker that `wrangler deploy` ships.
 */
import worker, { PrincipalObject as PrincipalBase, RateLimiterObject as RateLimiterBase, SessionObject as SessionBase, TaskObject as TaskBase } from "../../../src/index";
import { taskObjectName } from "../../../src/core/ids";
import { add, countWorkerRequest, reset, snapshot } from "./counters";
import { countedEnv, countedMessage, countedState, countHandlers } from "./instrument";

export class TaskObject extends TaskBase {
  constructor(ctx: DurableObjectState, env: Env) {
    super(countedState(ctx, "TaskObject"), countedEnv(env));
  }
}
countHandlers(TaskObject.prototype, "TaskObject", ["create", "prepare", "discard", "get", "deliver", "cancel", "answer", "failDelivery", "appendLog", "events", "attachState", "lookupState", "detachState", "storageBytes"]);

export class PrincipalObject extends PrincipalBase {
  constructor(ctx: DurableObjectState, env: Env) {
    super(countedState(ctx, "PrincipalObject"), countedEnv(env));
  }
}
countHandlers(PrincipalObject.prototype, "PrincipalObject", ["admit", "update", "remove", "list", "listEntries", "activeCount"]);

export class SessionObject extends SessionBase {
  constructor(ctx: DurableObjectState, env: Env) {
    super(countedState(ctx, "SessionObject"), countedEnv(env));
  }
}
countHandlers(SessionObject.prototype, "SessionObject", ["start", "touch", "end", "subscribe", "unsubscribe", "subscriptions", "publish"]);

export class RateLimiterObject extends RateLimiterBase {
  constructor(ctx: DurableObjectState, env: Env) {
    super(countedState(ctx, "RateLimiterObject"), countedEnv(env));
  }
}
countHandlers(RateLimiterObject.prototype, "RateLimiterObject", ["lease"]);

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === "/__scale") {
      if (request.method === "POST") reset();
      return Response.json(snapshot());
    }
    if (url.pathname === "/__scale/bytes") {
      const name = taskObjectName(url.searchParams.get("principal") ?? "", url.searchParams.get("taskId") ?? "");
      return Response.json({ bytes: await env.TASKS.getByName(name).storageBytes() });
    }
    countWorkerRequest();
    return worker.fetch(request, countedEnv(env), ctx);
  },
  async queue(batch, env) {
    add("queueBatches", batch.queue);
    add("queueReads", batch.queue, batch.messages.length);
    const messages = batch.messages.map((message) => countedMessage(message, batch.queue));
    return worker.queue(new Proxy(batch, { get: (target, prop) => (prop === "messages" ? messages : Reflect.get(target, prop, target)) }), countedEnv(env));
  },
} satisfies ExportedHandler<Env>;
