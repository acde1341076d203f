/**
 * Who is calling. Every task is bound to a principal from the start; with no auth
 * configured, local dev uses one fixed anonymous principal.
 */
import type { MiddlewareHandler } from "hono";
import type { AppEnv } from "./env";

export const ANONYMOUS_PRINCIPAL = "anonymous";

export const authenticate: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("principal", ANONYMOUS_PRINCIPAL);
  await next();
};
