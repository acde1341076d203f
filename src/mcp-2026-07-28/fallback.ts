/**
 * The answer to a long call from a client without the Tasks extension, once the inline budget is
 * spent: a normal result that says the work goes on, links the task resource, names the check-back
 * tools, and carries the task as `structuredContent` for programs and the task card.
 */
import { taskResourceUri } from "../tasks/ids";
import type { JsonObject } from "../tasks/model";
import type { TaskSnapshot } from "../tasks/task-object";
import type { ModernContext } from "./context";
import { taskStatusContent } from "../protocol/task-status-data";
import { taskResultMeta } from "./task-wire";

export function stillRunning(ctx: Pick<ModernContext, "baseUrl">, toolName: string, snapshot: TaskSnapshot): JsonObject {
  const { taskId } = snapshot.task;
  const uri = taskResourceUri(taskId);
  const meta = taskResultMeta(snapshot);
  return {
    content: [
      {
        type: "text",
        text:
          `"${toolName}" is still running in the background as task ${taskId}; this is not its result. ` +
          `To check back later, read the resource ${uri} (it shows status, progress and, once finished, the result), ` +
          `or call the task_status / task_result tools with taskId "${taskId}". Plain HTTP: GET ${ctx.baseUrl}/tasks/${taskId}.`,
      },
      { type: "resource_link", uri, name: `task-${taskId}`, title: `Task ${taskId} (${toolName})`, mimeType: "application/json", description: "Status, progress and result of the running tool call." },
    ],
    // The task as data, the same in both eras: the task card (an MCP App) follows the task from it.
    structuredContent: taskStatusContent(snapshot),
    ...(meta && { _meta: meta }),
  };
}
