/**
 * The Worker's entry points from a list of tools: `createTaskWorker({ tools })` records the tools
 * for this isolate (the TaskObject reads them), serves every MCP era on `/mcp`, and returns the
 * `fetch` and `queue` handlers to export as the Worker's default export.
 */
import type { TaskObjectsEnv } from "../core";
import { eraTable, routeByEra } from "../eras";
import { app, serveMcp } from "../http/app";
import type { TemplateBindings } from "../http/env";
import type { Tool } from "../jobs/define-tool";
import { mcp20251125 } from "../mcp-2025-11-25";
import { mcp20260728 } from "../mcp-2026-07-28";
import { engineQueue } from "./queue-handler";
import { toolSet } from "./tool-set";
import { callerResolver } from "./caller-resolver";
import type { ResolveCaller } from "../jobs/run-identity";
import type { EventType } from "../events/event-type";
import { serveEvents } from "./serve-events";
// The template serves the task card (resources/read of ui://…); an adopter's bundle leaves it out.
import "../pages/task-card";

export interface TaskWorkerOptions {
  /** Every tool the server offers, in the order tools/list shows them (defineTool, defineWorkflowTool). */
  tools: readonly Tool[];
  /** Event types of your own (defineEvent), served beside the engine's `task.status` (docs/events.md). */
  events?: readonly EventType[];
  /**
   * Turns what a task kept of its caller (the principal, the API key's name or the OAuth grant) into
   * the `job.caller` of each run: a reference resolved at run time, say a fresh token for a stored
   * grant id. A throw is what the tool learns, in its words (a revoked grant). docs/writing-tools.md.
   */
  resolveCaller?: ResolveCaller;
}

/**
 * What the template's Worker binds (docs/api.md, "Bindings and settings"): basic tasks' bindings,
 * WEBHOOKS, its 2025 SESSIONS, its RATE_LIMITER and, with OAuth, OAUTH_KV. Settings are read by name.
 */
export type TaskWorkerEnv = TemplateBindings;

/** The Worker's handlers (an `ExportedHandler<TaskWorkerEnv>`): export the object as the main module's default export. */
export interface TaskWorker {
  // `env` as hono's app.fetch takes it: the app parses what it reads of it (src/config.ts), so a
  // test's env whose vars are plain strings (not the generated literal types) is served too.
  fetch(request: Request, env: object, ctx?: ExecutionContext): Response | Promise<Response>;
  queue(batch: MessageBatch<unknown>, env: TaskObjectsEnv): Promise<void>;
}

/**
 * Builds the Worker from its tools. Call it once, at the top level of the main module.
 * @example
 * import { createTaskWorker } from "mcp-task-worker";
 * import countdown from "./tools/countdown";
 * export { TaskObject, SessionObject, PrincipalObject, RateLimiterObject } from "mcp-task-worker";
 * export default createTaskWorker({ tools: [countdown] });
 */
export function createTaskWorker({ tools, events = [], resolveCaller }: TaskWorkerOptions): TaskWorker {
  const registry = toolSet.record(tools);
  callerResolver.record(resolveCaller);
  serveEvents(events);
  // One /mcp for every era, a row each: a request is served by the row of the version it names
  // (src/eras); `initialize` and a session's traffic by the session era. A new revision is one more row.
  serveMcp(routeByEra(eraTable([mcp20260728, mcp20251125])), registry);
  const worker: TaskWorker = {
    fetch: app.fetch,
    // One Worker consumes every queue (and their DLQs), by each message's tag.
    queue: engineQueue(registry),
  };
  return worker satisfies ExportedHandler<TaskWorkerEnv>;
}
