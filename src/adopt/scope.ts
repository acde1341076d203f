/// <reference path="../jobs/async-hooks.d.ts" />
/**
 * One request of the adopter's Worker, as the engine sees it: set by `tasks.fetch` around the
 * adopter's handler (AsyncLocalStorage, which `agents` itself needs nodejs_compat for), so a durable
 * tool called inside the adopter's McpServer finds its env and caller. The engine is checked
 * lazily: the adopter's own requests never pay for a binding check or a principal.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { readSettings, type Settings } from "../config";
import type { RequestOrigin } from "../protocol/request-context";
import type { ToolRegistry } from "../protocol/tool-registry";
import { bindingProblems, hasTaskBindings } from "./bindings";
import { resolveCaller, type PrincipalOption } from "./principal";
import { callerContext, type CallerOf } from "./caller";
import type { TaskLinkCheck } from "./task-link";

/** Why the engine cannot serve this request: an HTTP answer, and the same words for a tool result. */
export interface Refusal {
  status: number;
  error: string;
  message: string;
}

export type Engine = { ok: true; origin: RequestOrigin; settings: Settings } | { ok: false; refusal: Refusal };

export interface Scope {
  /** The engine for this request: bindings checked, settings read, caller resolved (once). */
  engine(): Promise<Engine>;
}

const storage = new AsyncLocalStorage<Scope>();

export const currentScope = (): Scope | undefined => storage.getStore();

export function runInScope<T>(scope: Scope, fn: () => T): T {
  return storage.run(scope, fn);
}

export interface ScopeInput<E> {
  request: Request;
  env: E;
  ctx: ExecutionContext;
  tools: ToolRegistry;
  principal: PrincipalOption<E> | undefined;
  /** What a tool's `job.caller` gets (caller.ts); by default `ctx.props`. */
  caller?: CallerOf<E> | undefined;
  /** What precedes `/tasks/{id}` in the links answers carry (tasks-path.ts); the request's origin when absent. */
  baseUrl?: string;
  /** Whether the links answers carry reach the engine through the adopter's router (task-link.ts). */
  taskLink?: TaskLinkCheck | undefined;
}

export function requestScope<E>(input: ScopeInput<E>): Scope {
  let engine: Promise<Engine> | undefined;
  return { engine: () => (engine ??= openEngine(input)) };
}

async function openEngine<E>({
  request,
  env,
  ctx,
  tools,
  principal,
  caller: callerOf,
  baseUrl,
  taskLink,
}: ScopeInput<E>): Promise<Engine> {
  const checkedEnv: unknown = env;
  if (!hasTaskBindings(checkedEnv)) {
    const problems = bindingProblems(checkedEnv);
    const message = `Durable tasks (mcp-task-worker) cannot run until the Worker's wrangler config is fixed. ${problems.join(" ")}`;
    return { ok: false, refusal: { status: 503, error: "bindings_missing", message } };
  }
  const settings = readSettings(checkedEnv);
  if (settings.problems.length > 0) {
    const message = `${settings.problems.join(" ")} Until then no task request is served.`;
    return { ok: false, refusal: { status: 503, error: "settings_invalid", message } };
  }
  const caller = await resolveCaller(principal, request, env, ctx);
  if (!caller.ok) return { ok: false, refusal: caller.refusal };
  const context = await callerContext(callerOf, request, env, ctx);
  if (!context.ok) return { ok: false, refusal: context.refusal };
  // The first task request this isolate serves: the moment its links are about to be handed out.
  taskLink?.check(request, ctx);
  const origin: RequestOrigin = {
    env: checkedEnv,
    settings,
    tools,
    principal: caller.principal,
    ...(context.caller !== undefined && { caller: context.caller }),
    baseUrl: baseUrl ?? new URL(request.url).origin,
    waitUntil: (promise) => ctx.waitUntil(promise),
  };
  return { ok: true, origin, settings };
}

/** A refusal on the plain HTTP routes (`/tasks...`): `{ error, message }`, as the template's own. */
export const refusalResponse = ({ status, error, message }: Refusal): Response =>
  Response.json({ error, message }, { status });

/** JSON-RPC's first implementation-defined server error: what the SDK's own Host and Origin guards answer. */
const SERVER_REFUSED = -32000;

/**
 * A refusal on an MCP endpoint: the same status and words as a JSON-RPC error (null id: the body
 * was not read as a request), so an MCP client reads it as one; `data.error` keeps the slug.
 */
export const rpcRefusalResponse = ({ status, error, message }: Refusal): Response =>
  Response.json({ jsonrpc: "2.0", id: null, error: { code: SERVER_REFUSED, message, data: { error } } }, { status });
