/** The hono environment shared by every route: bindings plus what middleware resolves. */
import type { Settings } from "../config";
import type { RateLimiterEnv } from "../limits/rate-limiter-object";
import type { GatewayEnv } from "../principals/principal-indexes";
import type { SessionsEnv } from "../sessions/session-object";
import type { WebhooksEnv } from "../webhooks/enqueue";
import type { JsonObject } from "../json";

/** What the task routes read: basic tasks' bindings, WEBHOOKS when bound; an adopter's Worker has them (adopt/task-view.ts). */
export type TaskRoutesBindings = GatewayEnv & WebhooksEnv;

/** What the template's whole app reads: also its 2025 sessions, its rate limiter and, with OAuth, its KV. */
export type TemplateBindings = TaskRoutesBindings & SessionsEnv & RateLimiterEnv & { OAUTH_KV?: KVNamespace };

export interface AppEnv<B extends object = TemplateBindings> {
  Bindings: B;
  Variables: {
    settings: Settings;
    principal: string;
    /** What the auth knew of the caller (auth.ts): kept, sealed, with the tasks it creates as their `job.caller`. */
    caller?: JsonObject;
    requestId: string;
  };
}

/** The task routes' environment: served by the template's app and by an adopter's task view alike. */
export type TaskRoutesEnv = AppEnv<TaskRoutesBindings>;
