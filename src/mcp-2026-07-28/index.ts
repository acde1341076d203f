/**
 * The MCP 2026-07-28 adapter (with the Tasks extension), and the era router that puts it in front
 * of a legacy adapter on the same `/mcp`. A thin layer over the same TaskGateway the 2025 adapter uses.
 */
export { withModernEra } from "./era-router";
