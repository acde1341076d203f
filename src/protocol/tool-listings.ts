/**
 * The `tools/list` entries, built once per isolate for every protocol era: the registry's
 * tools (task-capable ones name the task card in `_meta.ui`) and the check-back tools.
 */
import type { JsonObject } from "../json";
import type { Tool } from "../jobs/define-tool";
import type { ToolRegistry } from "./tool-registry";
import { checkBackListings } from "./check-back-tools";
import { jsonInputSchema } from "./input-schema";
import { toolDescription } from "./instructions";
import { toolOutputSchema } from "./model-facing";
import { taskCardToolMeta } from "./task-card";

export function toolListing(tool: Tool): JsonObject {
  return {
    name: tool.name,
    ...(tool.title && { title: tool.title }),
    // How long calls work, for models whose client drops the server's instructions.
    description: toolDescription(tool),
    inputSchema: jsonInputSchema(tool.inputSchema),
    // Every result carries its words in structuredContent.summary (docs/model-facing.md); a call
    // that may become a task may answer with the task link instead of the tool's own fields.
    outputSchema: toolOutputSchema(tool.outputSchema, tool.taskSupport !== "forbidden"),
    execution: { taskSupport: tool.taskSupport },
    // A call that may become a task gets the live card in clients that render MCP Apps.
    ...(tool.taskSupport !== "forbidden" && { _meta: taskCardToolMeta() }),
  };
}

/** A registry is fixed for the isolate's life, so its listing is converted once, not per tools/list. */
const listings = new WeakMap<ToolRegistry, JsonObject[]>();
export function toolListings(registry: ToolRegistry): JsonObject[] {
  let listing = listings.get(registry);
  if (!listing) listings.set(registry, (listing = [...registry.tools.map(toolListing), ...checkBackListings()]));
  return listing;
}
