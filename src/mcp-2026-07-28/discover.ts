/**
 * `server/discover` (server/discover.mdx): the versions this endpoint serves (2026-07-28, and the
 * 2025 ones through `initialize`), the capabilities with the Tasks extension, and how to use it.
 * The same for every caller, so it may be cached publicly.
 */
import type { JsonObject } from "../core/task-record";
import { SUPPORTED_VERSIONS, TASKS_EXTENSION } from "./protocol";
import { cacheable, STATIC_TTL_MS } from "./results";

const MODERN_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { subscribe: true, listChanged: false },
  logging: {},
  extensions: { [TASKS_EXTENSION]: {} },
};

const MODERN_INSTRUCTIONS =
  "Long tool calls run as durable tasks. A client that declares the io.modelcontextprotocol/tasks extension gets a task handle at once " +
  "and follows it with tasks/get or subscriptions/listen (taskIds). Any other client gets the result inline when the call is quick; " +
  "otherwise a task:// link it can read later, and the task_status, task_result and task_cancel tools.";

export function discover(): JsonObject {
  return cacheable({ supportedVersions: [...SUPPORTED_VERSIONS], capabilities: MODERN_CAPABILITIES, instructions: MODERN_INSTRUCTIONS }, STATIC_TTL_MS, "public");
}
