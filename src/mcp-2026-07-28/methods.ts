/**
 * The 2026-07-28 methods this server answers, and what each needs before it runs. A method not
 * listed here (including `initialize`, `ping`, `tasks/result`, `tasks/list`, `prompts/*`) is
 * `-32601` on HTTP 404 (streamable-http.mdx, "Protocol Version Header").
 */
import type { JsonObject } from "../json";
import type { Context20260728 } from "./context";
import { discover } from "./discover";
import { listen } from "./listen";
import { listResources, listResourceTemplates, readResource } from "./resources";
import { cancelTask, getTask, updateTask } from "./tasks";
import { extensionMethod } from "./extension-methods";
import { toolsCall, listTools } from "./tools";

export interface Method20260728 {
  run(ctx: Context20260728, params: Record<string, unknown>): Promise<JsonObject>;
  /** Only for clients that declared the Tasks extension on this request (else `-32021`). */
  needsTasksExtension?: boolean;
}

export const METHODS_2026_07_28: ReadonlyMap<string, Method20260728> = new Map<string, Method20260728>([
  ["server/discover", { run: async () => discover() }],
  ["tools/list", { run: async (ctx) => listTools(ctx) }],
  ["tools/call", { run: toolsCall }],
  ["resources/list", { run: listResources }],
  ["resources/read", { run: readResource }],
  ["resources/templates/list", { run: async () => listResourceTemplates() }],
  ["subscriptions/listen", { run: listen }],
  ["tasks/get", { run: getTask, needsTasksExtension: true }],
  ["tasks/update", { run: updateTask, needsTasksExtension: true }],
  ["tasks/cancel", { run: cancelTask, needsTasksExtension: true }],
]);

/** The method of that name: the endpoint's own, or an extension's the Worker serves (extension-methods.ts). */
export const method20260728 = (name: string): Method20260728 | undefined =>
  METHODS_2026_07_28.get(name) ?? extensionMethod(name);
