/**
 * The tools a Worker serves, recorded once per isolate by createTaskWorker: the Durable Object
 * classes must be exported from the Worker's main module, so the TaskObject cannot take the tools
 * as a parameter and reads them from here when it is built.
 */
import type { Tool } from "../jobs/define-tool";
import type { ToolRegistry } from "../protocol/tool-registry";

/** Where one isolate keeps its tools; `toolSet` below is the isolate's own, tests make their own. */
export interface ToolHolder {
  /** Keeps the tools for this isolate; a second call (or a name listed twice) is refused. */
  record(tools: readonly Tool[]): ToolRegistry;
  /** The recorded tools, or an error naming createTaskWorker when none were recorded yet. */
  recorded(): ToolRegistry;
}

export function toolHolder(): ToolHolder {
  let registry: ToolRegistry | undefined;
  return {
    record(tools) {
      if (registry) {
        throw new Error(
          "createTaskWorker was called twice in one Worker: a Worker serves one list of tools. Call it once, in your main module (src/index.ts), and export what it returns as the default export.",
        );
      }
      const byName = new Map<string, Tool>();
      for (const tool of tools) {
        if (byName.has(tool.name)) {
          throw new Error(
            `Two tools are named "${tool.name}" in the list given to createTaskWorker: each tool needs a name of its own.`,
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
          "No tools: a TaskObject or queue consumer ran before createTaskWorker({ tools }) was called. Call it at the top level of your Worker's main module (src/index.ts), export its result as the default export, and export TaskObject from the same module.",
        );
      }
      return registry;
    },
  };
}

/** This isolate's tools. */
export const toolSet = toolHolder();
