/**
 * Stops the work of a tool that runs on another engine (ToolEngine, a Workflow) when its task is
 * cancelled or fails: cancel terminates the instance. A task that completed needs nothing: its
 * work is what completed it. Should this be missed (the process died right after the cancel), the
 * work stops at its next report to the task, which answers that the task has ended.
 */
import type { TaskObserver } from "../core/ports";
import type { RunnableTool } from "./runner";

export function engineObserver(findTool: (name: string) => RunnableTool | undefined): TaskObserver {
  return async ({ env, record, events }) => {
    if (record.status !== "cancelled" && record.status !== "failed") return;
    // Only the commit that ended the task carries its status event.
    if (!events.some((event) => event.type === "status")) return;
    const engine = findTool(record.tool)?.engine;
    if (!engine) return;
    try {
      await engine.stop(env, record.taskId);
    } catch (error) {
      console.warn(JSON.stringify({ event: "engine.stop_failed", taskId: record.taskId, message: error instanceof Error ? error.message : String(error) }));
    }
  };
}
