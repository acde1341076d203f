/**
 * `tasks.register(server)`: the engine's tools on the adopter's SDK v2 McpServer, so its
 * `tools/list` (both eras) and `server/discover` show them: each durable tool with the template's
 * listing (how long calls work, its output schema), the check-back tools
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
  type StandardSchemaWithJSON,
} from "@modelcontextprotocol/server";
import * as z from "zod";
import { isRecord, type JsonObject } from "../json";
import { callTool, type ToolCallOutcome } from "../protocol/call-tool";
import { checkBackListings } from "../protocol/check-back-tools";
import { requestContext } from "../protocol/request-context";
import { stillRunningResult } from "../protocol/task-results";
import { toolListing } from "../protocol/tool-listings";
import type { ToolRegistry } from "../protocol/tool-registry";
import { callResult, withoutRelatedTask } from "../mcp-2026-07-28/call-results";
import { EVENTS_EXTENSION, TASKS_EXTENSION } from "../mcp-2026-07-28/protocol";
import { currentScope } from "./scope";

const ListingSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  annotations: z.object({ readOnlyHint: z.boolean().optional(), openWorldHint: z.boolean().optional() }).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
type Listing = z.infer<typeof ListingSchema>;

/** A schema the SDK lists as it is and lets through: the engine validates every call itself (call-tool.ts). */
function listedAs(json: Record<string, unknown>): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    "~standard": {
      version: 1,
      vendor: "mcp-task-worker",
      validate: (value) =>
        isRecord(value) ? { value } : { issues: [{ message: "Pass the arguments as an object." }] },
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

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

async function callThroughEngine(
  name: string,
  args: Record<string, unknown>,
  sdk: ServerContext,
  tools: ToolRegistry,
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
    const result = framed(outcome, ctx.baseUrl);
    return isCallToolResult(result) ? result : errorResult(`"${name}" returned a result that is not a CallToolResult.`);
  } catch (error) {
    // A ProtocolError (bad arguments, a failed task) is the model's to read, as the SDK frames a throw.
    return errorResult(error instanceof Error ? error.message : String(error));
  }
}

function registerListing(server: McpServer, listing: Listing, tools: ToolRegistry): void {
  server.registerTool(
    listing.name,
    {
      ...(listing.title !== undefined && { title: listing.title }),
      description: listing.description,
      inputSchema: listedAs(listing.inputSchema),
      ...(listing.outputSchema !== undefined && { outputSchema: listedAs(listing.outputSchema) }),
      ...(listing.annotations !== undefined && { annotations: listing.annotations }),
      ...(listing._meta !== undefined && { _meta: listing._meta }),
    },
    (args, sdk) => callThroughEngine(listing.name, args, sdk, tools),
  );
}

/**
 * The listings to add: the durable tools without the task card's `_meta.ui` (the adopter's server
 * does not serve the card's `ui://` resource), and the check-back tools a model calls, not the
 * card-only one. No `execution.taskSupport`: 2026-07-28 has no such field (the SDK strips it; the
 * extension decides), and a 2025 client must not augment a call this server answers plainly.
 */
export function adopterListings(tools: ToolRegistry): Listing[] {
  const durable = tools.tools.map((tool) => {
    const { _meta: _card, ...listing } = toolListing(tool);
    return ListingSchema.parse(listing);
  });
  const checkBack = checkBackListings()
    .map((listing) => ListingSchema.parse(listing))
    .filter((listing) => listing._meta === undefined);
  return [...durable, ...checkBack];
}

/**
 * Adds the engine's tools and the Tasks extension to `server` (call it before the server connects),
 * and the Events extension when the engine serves it: under `extensions` and, for the clients
 * that look there (the AI SDK, ChatGPT), as the top-level `events` capability.
 */
export function registerOn<S extends McpServer>(
  server: S,
  tools: ToolRegistry,
  listings: readonly Listing[],
  events = false,
): S {
  for (const listing of listings) registerListing(server, listing, tools);
  server.server.registerCapabilities({
    extensions: { [TASKS_EXTENSION]: {}, ...(events && { [EVENTS_EXTENSION]: { listChanged: false } }) },
    ...(events && { events: {} }),
  });
  return server;
}
