/**
 * Stops the work of a tool that runs on another engine (ToolEngine, a Workflow) when its task is
 * cancelled, fails or expires: cancel and ttl expiry terminate the instance. A task that completed needs nothing: its
 * work is what completed it. Should this be missed (the process died right after the cancel), the
 * work stops at its next report to the task, which answers that the task has ended.
 */
import type { TaskObserver, TaskRecord } from "../core";
import type { RunnableTool } from "./runner";

type FindTool = (name: string) => RunnableTool | undefined;

/** Stops the task's work on its engine, if its tool has one; failures are logged, never thrown. */
async function stopWork(findTool: FindTool, env: Cloudflare.Env, record: TaskRecord): Promise<void> {
  const engine = findTool(record.tool)?.engine;
  if (!engine) return;
  try {
    await engine.stop(env, record.taskId);
  } catch (error) {
    console.warn(
      JSON.stringify({
        event: "engine.stop_failed",
        taskId: record.taskId,
        message: error instanceof Error ? error.message : String(error),
      }),
    );
  }
}

export function engineObserver(findTool: FindTool): TaskObserver<Cloudflare.Env> {
  return async ({ env, record, events }) => {
    if (record.status !== "cancelled" && record.status !== "failed") return;
    // Only the commit that ended the task carries its status event.
    if (!events.some((event) => event.type === "status")) return;
    await stopWork(findTool, env, record);
  };
}

/** TaskObjectWiring.onExpired: a task whose ttl ran out stops its work too (unless it had ended already). */
export const stopExpiredWork =
  (findTool: FindTool) =>
  async (env: Cloudflare.Env, record: TaskRecord): Promise<void> => {
    if (record.status === "working" || record.status === "input_required") await stopWork(findTool, env, record);
  };
