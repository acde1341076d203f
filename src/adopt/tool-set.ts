/**
 * The durable tools of this isolate, as `durableTasks({ tools })` recorded them: the exported
 * TaskObject and the queue consumer are built by the runtime, not by the adopter, so they find the
 * tools here. The adopter's main module calls durableTasks() at load, before any object runs a job.
 */
import { findStep } from "../jobs/steps";
import type { ToolRegistry } from "../protocol/tool-registry";
import type { Tool } from "../jobs/define-tool";

let recorded: ToolRegistry | undefined;

/** Records `tools` for the isolate; a second call must name the same tools (one engine per Worker). */
export function recordTools(tools: readonly Tool[]): ToolRegistry {
  const names = tools.map((tool) => tool.name);
  const duplicate = names.find((name, index) => names.indexOf(name) !== index);
  if (duplicate !== undefined)
    throw new Error(`durableTasks: two tools are named "${duplicate}"; give each durable tool its own name.`);
  if (recorded !== undefined) {
    const before = recorded.tools.map((tool) => tool.name).join(",");
    if (before !== names.join(","))
      throw new Error(
        `durableTasks was called twice with different tools (${before} then ${names.join(",")}); call it once per Worker and share the result.`,
      );
    return recorded;
  }
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  recorded = { tools, find: (name) => byName.get(name) };
  return recorded;
}

/** The recorded tool of this name; undefined when none is (a task of a tool since removed fails as such). */
export const findRecordedTool = (name: string): Tool | undefined => recorded?.find(name);

/** A fan-out step of a recorded tool, by the names its queue message carries. */
export const findRecordedStep = (tool: string, step: string) => findStep(findRecordedTool(tool)?.steps, step);
