/** The tools this server lists: the registry's, then the check-back tools, as `tools/list` entries. */
import type { JsonObject } from "../core/task-record";
import type { Tool } from "../tools/define";
import { tools } from "../tools/registry";
import { checkBackListings } from "./check-back-tools";
import { jsonInputSchema } from "./input-schema";

export function toolListing(tool: Tool): JsonObject {
  return {
    name: tool.name,
    ...(tool.title && { title: tool.title }),
    description: tool.description,
    inputSchema: jsonInputSchema(tool.inputSchema),
    execution: { taskSupport: tool.taskSupport },
  };
}

/** The registry is fixed at build time, so its listing is converted once per isolate, not per tools/list. */
let listings: JsonObject[] | undefined;
export const toolListings = (): JsonObject[] => (listings ??= [...tools.map(toolListing), ...checkBackListings()]);
