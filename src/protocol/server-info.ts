/** Who this server says it is, in every era (2025 `initialize`, 2026 `_meta` serverInfo). */
export const SERVER_INFO = { name: "mcp-task-worker", version: "0.1.0" };
