/** What every MCP handler of one HTTP request can reach, in either era; each era's context adds its wire. */
import type { Settings } from "../config";
import { TaskGateway } from "../core";
import { gatewayBindings, type GatewayEnv } from "../principals/principal-indexes";
import type { ToolRegistry } from "./tool-registry";
import type { JsonObject } from "../json";
import { sealCaller } from "../jobs/caller-seal";

/** E: the Worker's bindings as the era's handlers read them (at least basic tasks'). */
export interface RequestContext<E extends GatewayEnv = GatewayEnv> {
  env: E;
  settings: Settings;
  /** Who is asking (the Events extension keeps subscriptions per principal). */
  principal: string;
  /** The caller's way into the task core: another principal's task is exactly an unknown one. */
  gateway: TaskGateway;
  /** The tools this server serves (src/index.ts wires them in). */
  tools: ToolRegistry;
  /** What the auth knew of the caller: an inline call's `job.caller` (a task's is kept with it). */
  caller?: JsonObject;
  /** The server's public origin, for links such as `/tasks/{id}`. */
  baseUrl: string;
  /** The 2025 session the request came in, kept with the tasks it creates (2026-07-28 has none). */
  sessionId?: string;
  /** Keeps background work (a stream still being written) alive after the response starts. */
  waitUntil(promise: Promise<unknown>): void;
}

/** Who is asking, and where: the /mcp seam's request (src/http/mcp-endpoint.ts), as far as a handler needs it. */
export interface RequestOrigin<E extends GatewayEnv = GatewayEnv> {
  env: E;
  settings: Settings;
  tools: ToolRegistry;
  principal: string;
  /** What the server's auth knew of the caller, kept (sealed) with each task this request creates: `job.caller`. */
  caller?: JsonObject;
  baseUrl: string;
  waitUntil(promise: Promise<unknown>): void;
}

/** The context of one request, its gateway bound to the principal who sent it. */
export function requestContext<E extends GatewayEnv>(origin: RequestOrigin<E>): RequestContext<E> {
  const { env, settings, tools, baseUrl, waitUntil } = origin;
  const { caller, principal } = origin;
  const stored = caller === undefined ? undefined : () => sealCaller(caller, principal, env);
  const gateway = new TaskGateway(gatewayBindings(env), settings, principal, waitUntil, stored);
  return { env, settings, principal, gateway, tools, baseUrl, waitUntil, ...(caller !== undefined && { caller }) };
}
