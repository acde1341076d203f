/** Who this server says it is, in every era (2025 `initialize`, 2026 `_meta` serverInfo). */
export const SERVER_INFO = { name: "mcp-task-worker", version: "0.2.0" };

/** The capabilities of every era; each adds its own way to tasks (2025 `tasks`, 2026 the Tasks extension) and logging. */
export const SHARED_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { subscribe: true, listChanged: false },
};
