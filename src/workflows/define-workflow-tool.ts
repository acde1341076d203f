/**
 * How a Workflow-backed tool is declared: like `defineTool`, with the Workflow its calls run on
 * instead of a `run` function. Each call is an ordinary task (every view, stream and answer path
 * works unchanged); its work is one instance of the Workflow, a `TaskWorkflow` subclass.
 *
 * @example
 * export default defineWorkflowTool({
 *   name: "publish_report",
 *   description: "Builds a report page by page, asks whether to publish it, then publishes it.",
 *   inputSchema: PublishReportInput,
 *   taskSupport: "optional",
 *   workflow: (env) => env.PUBLISH_REPORT,
 * });
 */
import type * as z from "zod";
import { PermanentError } from "../jobs/context";
import type { TaskSupport, Tool } from "../jobs/define-tool";
import { workflowEngine, type WorkflowBinding } from "./engine";

export interface WorkflowToolDefinition<Schema extends z.ZodObject = z.ZodObject> {
  name: string;
  title?: string;
  description: string;
  inputSchema: Schema;
  /** "optional" or "required": a Workflow's work may take days, so it never runs inline ("forbidden"). */
  taskSupport: Exclude<TaskSupport, "forbidden">;
  /** The Workflow binding (declared under `[[workflows]]` in wrangler.toml). */
  workflow: WorkflowBinding;
}

export function defineWorkflowTool<Schema extends z.ZodObject>({
  workflow,
  ...tool
}: WorkflowToolDefinition<Schema>): Tool {
  return {
    ...tool,
    engine: workflowEngine(workflow, tool.inputSchema),
    // Tasks of this tool are run by its engine; nothing else calls `run`.
    run: () => Promise.reject(new PermanentError(`"${tool.name}" runs on a Workflow, only as a task.`)),
  };
}
