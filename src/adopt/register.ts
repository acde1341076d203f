/**
 * `tasks.register(server)`: the engine's tools on the adopter's SDK v2 McpServer, so its
 * `tools/list` (both eras) and `server/discover` show them: each durable tool as its author wrote it
 * (listing.ts), where `registerTool` put it or else where `register` is called, the check-back tools
 * for clients without the Tasks extension, and the extension among the capabilities. 2026-07-28
 * calls of these tools never reach the server (tasks.fetch serves them); its handlers answer the
 * 2025 requests `createMcpHandler` serves statelessly: the hybrid answer, inline when quick, else
 * the "Still running" link.
 */
import {
  isCallToolResult,
  type CallToolResult,
  type McpServer,
  type ServerContext,
} from "@modelcontextprotocol/server";
import type { JsonObject } from "../json";
import { callTool, type ToolCallOutcome } from "../protocol/call-tool";
import { requestContext } from "../protocol/request-context";
import { stillRunningResult } from "../protocol/task-results";
import type { ToolRegistry } from "../protocol/tool-registry";
import { callResult, withoutRelatedTask } from "../mcp-2026-07-28/call-results";
import { EVENTS_EXTENSION, TASKS_EXTENSION } from "../mcp-2026-07-28/protocol";
import { withoutRepeatedText, withoutSentences } from "./as-written-result";
import type { Listing } from "./listing";
import { currentScope } from "./scope";
import { registerTaskResource } from "./task-resource";

const errorResult = (text: string): CallToolResult => ({ content: [{ type: "text", text }], isError: true });

/** The hybrid answer as 2025 frames a plain call: the result, or the link with how to check back. */
function framed(outcome: ToolCallOutcome, baseUrl: string): JsonObject {
  switch (outcome.kind) {
    case "inline":
      return outcome.result;
    case "result":
      return callResult(outcome.snapshot, outcome.outcome);
    case "still_running":
      return withoutRelatedTask(outcome.fallback);
    case "task":
      // Not reached: a 2025 request through this server is a plain call (task "none").
      return withoutRelatedTask(stillRunningResult(outcome.snapshot, baseUrl));
    case "refused":
      return { content: [{ type: "text", text: outcome.message }], isError: true };
  }
}

/** A tool without a declared outputSchema answers as its author would (as-written-result.ts). */
function asWritten(result: JsonObject, kind: ToolCallOutcome["kind"], declared: boolean): JsonObject {
  if (declared) return result;
  return kind === "still_running" || kind === "task" ? withoutSentences(result) : withoutRepeatedText(result);
}

async function callThroughEngine(
  name: string,
  args: Record<string, unknown>,
  sdk: ServerContext,
  tools: ToolRegistry,
  declared: boolean,
): Promise<CallToolResult> {
  const scope = currentScope();
  if (!scope)
    return errorResult(
      `"${name}" is a durable tool, and this request did not pass through tasks.fetch: wrap the Worker's MCP handler, as in export default { fetch: tasks.fetch(createMcpHandler(buildServer)) }.`,
    );
  const engine = await scope.engine();
  if (!engine.ok) return errorResult(engine.refusal.message);
  const ctx = requestContext({ ...engine.origin, tools });
  try {
    const outcome = await callTool(
      { name, arguments: args, meta: sdk.mcpReq._meta, task: { kind: "none" }, signal: sdk.mcpReq.signal },
      ctx,
    );
    const result = asWritten(framed(outcome, ctx.baseUrl), outcome.kind, declared);
    return isCallToolResult(result) ? result : errorResult(`"${name}" returned a result that is not a CallToolResult.`);
  } catch (error) {
    // A ProtocolError (bad arguments, a failed task) is the model's to read, as the SDK frames a throw.
    return errorResult(error instanceof Error ? error.message : String(error));
  }
}

function registerListing(server: McpServer, listing: Listing, tools: ToolRegistry): void {
  const { name, inputSchema, outputSchema, ...config } = listing;
  server.registerTool(
    name,
    { ...config, inputSchema, ...(outputSchema !== undefined && { outputSchema }) },
    (args, sdk) => callThroughEngine(name, args, sdk, tools, outputSchema !== undefined),
  );
}

/** Which durable tools each server lists already (registerTool put them where the author's were). */
const placed = new WeakMap<McpServer, Set<string>>();

/**
 * One durable tool on `server`, here: where the author's `server.registerTool` call was, so the
 * listing keeps its position. `register` later adds the rest, and skips this one.
 */
export function registerOneOn<S extends McpServer>(
  server: S,
  tools: ToolRegistry,
  durable: readonly Listing[],
  name: string,
): S {
  const listing = durable.find((candidate) => candidate.name === name);
  if (listing === undefined)
    throw new Error(
      `tasks.registerTool(server, "${name}"): no such durable tool; durableTasks({ tools }) has ${durable.map((tool) => `"${tool.name}"`).join(", ")}.`,
    );
  const names = placed.get(server) ?? new Set<string>();
  placed.set(server, names);
  if (!names.has(name)) registerListing(server, listing, tools);
  names.add(name);
  return server;
}

/**
 * Adds the engine's tools, the `task://` resource its answers link to, and the Tasks extension to
 * `server` (call it before the server connects),
 * and the Events extension when the engine serves it: under `extensions` and, for the clients
 * that look there (the AI SDK, ChatGPT), as the top-level `events` capability.
 */
export function registerOn<S extends McpServer>(
  server: S,
  tools: ToolRegistry,
  listings: { durable: readonly Listing[]; checkBack: readonly Listing[] },
  events = false,
): S {
  for (const listing of listings.durable) registerOneOn(server, tools, listings.durable, listing.name);
  for (const listing of listings.checkBack) registerListing(server, listing, tools);
  registerTaskResource(server, tools);
  server.server.registerCapabilities({
    extensions: { [TASKS_EXTENSION]: {}, ...(events && { [EVENTS_EXTENSION]: { listChanged: false } }) },
    ...(events && { events: {} }),
  });
  return server;
}
