/**
 * The tools a Worker serves, recorded once per isolate by createTaskWorker (the template) or
 * durableTasks (an adopter, mcp-task-worker/agents): the Durable Object classes must be exported
 * from the Worker's main module, so the TaskObject cannot take the tools as a parameter and reads
 * them from here when it is built.
 */
import type { Tool } from "../jobs/define-tool";
import type { ToolRegistry } from "../protocol/tool-registry";

/** The factory that records the tools, named in the errors so they point at the caller's own line. */
export type Recorder = "createTaskWorker" | "durableTasks";

/** Where one isolate keeps its tools; `toolSet` below is the isolate's own, tests make their own. */
export interface ToolHolder {
  /**
   * Keeps the tools for this isolate. A second call naming the same tools in the same order gets the
   * same registry (a Worker serving two lanes shares one engine); another list, or a name listed
   * twice, is refused.
   */
  record(tools: readonly Tool[], by?: Recorder): ToolRegistry;
  /** The recorded tools, or an error naming the factories when none were recorded yet. */
  recorded(): ToolRegistry;
}

const namesOf = (tools: readonly Tool[]) => tools.map((tool) => tool.name).join(",");

export function toolHolder(): ToolHolder {
  let registry: ToolRegistry | undefined;
  return {
    record(tools, by = "createTaskWorker") {
      if (registry) {
        if (namesOf(registry.tools) === namesOf(tools)) return registry;
        throw new Error(
          `${by} was called twice in one Worker with different tools (${namesOf(registry.tools)} then ${namesOf(tools)}): ` +
            `a Worker serves one list of tools. Call it once, in your main module, and share what it returns.`,
        );
      }
      const byName = new Map<string, Tool>();
      for (const tool of tools) {
        if (byName.has(tool.name)) {
          throw new Error(
            `Two tools are named "${tool.name}" in the list given to ${by}: each tool needs a name of its own.`,
          );
        }
        byName.set(tool.name, tool);
      }
      registry = { tools: [...tools], find: (name) => byName.get(name) };
      return registry;
    },
    recorded() {
      if (!registry) {
        throw new Error(
          "No tools: a TaskObject or queue consumer ran before createTaskWorker({ tools }) (or durableTasks({ tools }) in an agents Worker) was called. " +
            "Call it at the top level of your Worker's main module, and export TaskObject from the same module.",
        );
      }
      return registry;
    },
  };
}

/** This isolate's tools. */
export const toolSet = toolHolder();
