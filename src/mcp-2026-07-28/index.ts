/**
 * The MCP 2026-07-28 adapter (with the Tasks extension): what the HTTP layer needs to route a
 * request here and serve it. A thin layer over the same TaskGateway the 2025 adapter uses.
 */
export { classifyPost, namesModernVersion, type Classification, type ModernMessage } from "./classify";
export { handleModernPost, modernMethodNotAllowed, modernTransportError } from "./endpoint";
export { errorResponse } from "./errors";
