/**
 * A bench-only build of the Worker (bench/scale.bench.ts starts it in place of src/index.ts): the
 * same app and objects, with every binding, storage call and handler counted (instrument.ts), and
 * routes of its own: `GET /__scale` returns the counters, `POST /__scale` resets them, and
 * `GET /__scale/bytes?principal=&taskId=` is the size of that task's database.
 * Nothing here is in the Worker that `wrangler deploy` ships.
 */
import worker, {
  EventLogObject as EventLogBase,
  PrincipalObject as PrincipalBase,
  RateLimiterObject as RateLimiterBase,
  SessionObject as SessionBase,
  TaskObject as TaskBase,
} from "../../../src/index";
import { taskObjectName } from "../../../src/core/model/ids";

// The template's Workflow, bound by wrangler.toml (not counted: its engine is the platform's).
export { PublishReportWorkflow } from "../../../src/index";
import { add, countWorkerRequest, reset, snapshot } from "./counters";
import { countedEnv, countedMessage, countHandlers, instrumentState } from "./instrument";

export class TaskObject extends TaskBase {
  constructor(ctx: DurableObjectState, env: Env) {
    instrumentState(ctx, "TaskObject");
    super(ctx, countedEnv(env));
  }
}
// Each class's RPC methods (its public async methods): a call to one missing here is still counted
// at the caller, only the object's active time during it is not.
countHandlers(TaskObject.prototype, "TaskObject", [
  "create",
  "prepare",
  "discard",
  "get",
  "deliver",
  "cancel",
  "answer",
  "failDelivery",
  "appendLog",
  "events",
  "attachState",
  "lookupState",
  "detachState",
  "openState",
  "closeState",
  "reopenState",
  "storageBytes",
  "claimSteps",
  "stepDone",
  "stepFailed",
  "stepHeartbeat",
  "stepUndeliverable",
  "callback",
  "completeCallback",
]);

export class PrincipalObject extends PrincipalBase {
  constructor(ctx: DurableObjectState, env: Env) {
    instrumentState(ctx, "PrincipalObject");
    super(ctx, countedEnv(env));
  }
}
countHandlers(PrincipalObject.prototype, "PrincipalObject", [
  "admit",
  "update",
  "remove",
  "list",
  "listEntries",
  "activeCount",
]);

export class SessionObject extends SessionBase {
  constructor(ctx: DurableObjectState, env: Env) {
    instrumentState(ctx, "SessionObject");
    super(ctx, countedEnv(env));
  }
}
countHandlers(SessionObject.prototype, "SessionObject", [
  "start",
  "touch",
  "end",
  "subscribe",
  "unsubscribe",
  "subscriptions",
  "publish",
]);

export class RateLimiterObject extends RateLimiterBase {
  constructor(ctx: DurableObjectState, env: Env) {
    instrumentState(ctx, "RateLimiterObject");
    super(ctx, countedEnv(env));
  }
}
countHandlers(RateLimiterObject.prototype, "RateLimiterObject", ["lease"]);

// The Events extension's log (one object per event type and principal): bound by wrangler.toml, so exported.
export class EventLogObject extends EventLogBase {
  constructor(ctx: DurableObjectState, env: Env) {
    instrumentState(ctx, "EventLogObject");
    super(ctx, countedEnv(env));
  }
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === "/__scale") {
      if (request.method === "POST") reset();
      return Response.json(snapshot());
    }
    if (url.pathname === "/__scale/id") {
      const name = taskObjectName(url.searchParams.get("principal") ?? "", url.searchParams.get("taskId") ?? "");
      return Response.json({ id: env.TASKS.idFromName(name).toString() });
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
    return worker.queue(
      new Proxy(batch, { get: (target, prop) => (prop === "messages" ? messages : Reflect.get(target, prop, target)) }),
      countedEnv(env),
    );
  },
} satisfies ExportedHandler<Env>;
