/**
 * How a tool is declared. A tool is one file: a name, a description, a zod input
 * schema, its task support, and `run(input, job)`; list it in the tools you give `createTaskWorker` (the template: src/tools/registry.ts).
 *
 * @example
 * export default defineTool({
 *   name: "resize_images",
 *   description: "Resize every image in a bucket.",
 *   inputSchema: z.object({ bucket: z.string() }),
 *   taskSupport: "optional",
 *   async run({ bucket }, job) {
 *     const keys = await job.step("list", () => listKeys(bucket));
 *     for (const [i, key] of keys.entries()) {
 *       await job.step(`resize ${key}`, () => resize(key));
 *       await job.progress(i + 1, keys.length);
 *     }
 *     return `Resized ${keys.length} images.`;
 *   },
 * });
 */
import * as z from "zod";
import { withSummary, type JobContext, type ToolResult } from "./context";
import type { ToolEngine } from "./runner";
import type { StepMap } from "./steps";
import { withTypedCaller } from "./typed-caller";

export { textOf, withSummary } from "./context";
export type { ToolContent, ToolResult } from "./context";

export type TaskSupport = "forbidden" | "optional" | "required";

export interface ToolDefinition<Schema extends z.ZodObject = z.ZodObject> {
  name: string;
  title?: string;
  description: string;
  inputSchema: Schema;
  /** "forbidden": runs inline, never as a task. "optional": a task when asked, or when it outlasts the inline budget. "required": task only. */
  taskSupport: TaskSupport;
  /**
   * Step functions the job may fan out with `job.fanOut(step, inputs)`: each item runs in a queue
   * consumer, which finds the step by its name here (docs/fan-out.md).
   */
  steps?: StepMap;
  /**
   * The fields of the tool's own `structuredContent`, if it returns any. Every result also carries
   * `summary` (its text, added for you), so a client that hands the model only the structured
   * object still passes on the tool's own words (docs/model-facing.md).
   */
  outputSchema?: z.ZodObject;
  /**
   * The version of the tool's code, a whole number from 1 (the default). Raise it when a deploy
   * changes what a task in flight would replay (docs/writing-tools.md, "Changing a tool with tasks in
   * flight"); every task keeps the version it started on as `job.version`.
   */
  version?: number;
  run(input: z.infer<Schema>, job: JobContext): Promise<ToolResult | string>;
}

/** A registered tool with its input type erased; `run` parses its input with the tool's schema first. */
export interface Tool extends Omit<ToolDefinition, "run"> {
  run(input: unknown, job: JobContext): Promise<ToolResult | string>;
  /** Another engine runs the tool's tasks (defineWorkflowTool, src/workflows/define-workflow-tool.ts). */
  engine?: ToolEngine;
}

/**
 * A tool whose `inputSchema` is a raw zod shape (`{ city: z.string() }`), as `server.registerTool`
 * accepts it: the same tool as with `z.object(shape)`, so an adopted tool keeps its schema as written.
 */
export type ShapeToolDefinition<Shape extends z.ZodRawShape> = Omit<
  ToolDefinition<z.ZodObject<Shape>>,
  "inputSchema"
> & {
  inputSchema: Shape;
};

/** The object schema either form names: a zod object as it is, a raw shape wrapped as the SDK wraps it. */
const objectSchema = (schema: z.ZodObject | z.ZodRawShape): z.ZodObject =>
  schema instanceof z.ZodObject ? schema : z.object(schema);

/**
 * A tool that acts for its caller: `caller` is the zod schema of what the server's auth keeps of
 * the caller (durableTasks' `caller` option, the template's principal and key), and `job.caller`
 * is parsed with it before the tool reads it (a caller that does not fit fails the task in words).
 */
export interface CallerToolDefinition<Schema extends z.ZodObject, Caller extends z.ZodType>
  extends Omit<ToolDefinition<Schema>, "run"> {
  caller: Caller;
  run(input: z.infer<Schema>, job: JobContext<z.infer<Caller>>): Promise<ToolResult | string>;
}

/**
 * @example
 * defineTool({ name: "sync", description: "…", inputSchema: z.object({}), taskSupport: "optional",
 *   caller: z.object({ apiKey: z.string() }),
 *   run: async (_input, job) => (await fetch(API, { headers: { Authorization: `Bearer ${job.caller.apiKey}` } })).text() })
 */
export function defineTool<Schema extends z.ZodObject, Caller extends z.ZodType>(
  tool: CallerToolDefinition<Schema, Caller>,
): Tool;
export function defineTool<Schema extends z.ZodObject>(tool: ToolDefinition<Schema>): Tool;
export function defineTool<Shape extends z.ZodRawShape>(tool: ShapeToolDefinition<Shape>): Tool;
export function defineTool(
  tool: ToolDefinition | ShapeToolDefinition<z.ZodRawShape> | CallerToolDefinition<z.ZodObject, z.ZodType>,
): Tool {
  const { version } = tool;
  if (version !== undefined && (!Number.isSafeInteger(version) || version < 1)) {
    throw new TypeError(`Tool "${tool.name}": version must be a whole number from 1, got ${String(version)}.`);
  }
  if ("caller" in tool) {
    const { caller, ...rest } = tool;
    return {
      ...rest,
      run: async (input, job) =>
        withSummary(await tool.run(tool.inputSchema.parse(input), withTypedCaller(job, caller))),
    };
  }
  const inputSchema = objectSchema(tool.inputSchema);
  return {
    ...tool,
    inputSchema,
    run: async (input, job) => withSummary(await tool.run(inputSchema.parse(input), job)),
  };
}
