/**
 * What an adopted tool looks like to clients: what its author wrote. Its `inputSchema` is listed
 * as the SDK lists a zod schema of the author's own tools (`~standard.jsonSchema`, so a raw shape
 * given to defineTool reads the same as one given to `server.registerTool`); it gains no
 * `outputSchema` unless the author declared one. What the task machinery adds is the description's
 * last sentence (how long calls work, for models whose client drops the server's instructions) and,
 * with a declared `outputSchema`, the task link's fields beside the author's (the still-running
 * answer must conform to it). docs/adopting.md ("What clients see") says the same.
 */
import type { StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import * as z from "zod";
import { isRecord } from "../json";
import type { Tool } from "../jobs/define-tool";
import { checkBackListings } from "../protocol/check-back-tools";
import { toolDescription } from "../protocol/instructions";
import { toolOutputSchema } from "../protocol/model-facing";
import type { ToolRegistry } from "../protocol/tool-registry";

type Arguments = Record<string, unknown>;
type ListedSchema = StandardSchemaWithJSON<Arguments>;

export interface Listing {
  name: string;
  title?: string;
  description: string;
  inputSchema: ListedSchema;
  outputSchema?: ListedSchema;
  annotations?: { readOnlyHint?: boolean; openWorldHint?: boolean };
}

const CheckBackListingSchema = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  annotations: z.object({ readOnlyHint: z.boolean().optional(), openWorldHint: z.boolean().optional() }).optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});

/**
 * Lets every argument object through: the engine validates each call itself (call-tool.ts), with
 * the tool's own schema, once (a transform run here as well would run twice).
 */
const passThrough: ListedSchema["~standard"]["validate"] = (value) =>
  isRecord(value) ? { value } : { issues: [{ message: "Pass the arguments as an object." }] };

/** A JSON Schema the SDK lists as it is. */
function listedAs(json: Arguments): ListedSchema {
  return {
    "~standard": {
      version: 1,
      vendor: "mcp-task-worker",
      validate: passThrough,
      jsonSchema: { input: () => json, output: () => json },
    },
  };
}

/** The author's zod schema, converted to JSON Schema by zod itself, as the SDK converts it. */
function asWritten(schema: z.ZodObject): ListedSchema {
  return {
    "~standard": {
      version: 1,
      vendor: "mcp-task-worker",
      validate: passThrough,
      jsonSchema: schema["~standard"].jsonSchema,
    },
  };
}

function durableListing(tool: Tool): Listing {
  const declared = tool.outputSchema;
  return {
    name: tool.name,
    ...(tool.title !== undefined && { title: tool.title }),
    description: toolDescription(tool),
    inputSchema: asWritten(tool.inputSchema),
    ...(declared !== undefined && {
      outputSchema: listedAs(toolOutputSchema(declared, tool.taskSupport !== "forbidden")),
    }),
  };
}

/**
 * The listings to add: the durable tools as written, then the check-back tools a model calls (not
 * the card-only one: the adopter's server does not serve the card's `ui://` resource). No
 * `execution.taskSupport`: 2026-07-28 has no such field (the extension decides), and a 2025 client
 * must not augment a call this server answers plainly.
 */
export function adopterListings(tools: ToolRegistry): { durable: Listing[]; checkBack: Listing[] } {
  const checkBack = checkBackListings()
    .map((listing) => CheckBackListingSchema.parse(listing))
    .filter((listing) => listing._meta === undefined)
    .map(({ _meta: _none, inputSchema, outputSchema, ...listing }) => ({
      ...listing,
      inputSchema: listedAs(inputSchema),
      ...(outputSchema !== undefined && { outputSchema: listedAs(outputSchema) }),
    }));
  return { durable: tools.tools.map(durableListing), checkBack };
}
