/**
 * The MCP 2026-07-28 adapter (with the Tasks extension): one row of the era table (src/eras),
 * a thin layer over the same TaskGateway the 2025-11-25 adapter uses.
 */
export { mcp20260728 } from "./adapter";
