/**
 * The id of the server's `elicitation/create` request for a task's question names its route:
 * `input/<taskId>/<key>`. The client's JSON-RPC response carries it back, POSTed to /mcp on any
 * isolate, so the answer reaches the task with no server memory; the principal comes from auth,
 * so another principal's response lands in an empty object and reads as unknown.
 */
import { isTaskId, isInputKey } from "../core";

const PREFIX = "input/";

export const questionRequestId = (taskId: string, key: string): string => `${PREFIX}${taskId}/${key}`;

/** The task and question a response's id names, or undefined for an id this server did not issue for a question. */
export function parseQuestionRequestId(id: unknown): { taskId: string; key: string } | undefined {
  if (typeof id !== "string" || !id.startsWith(PREFIX)) return undefined;
  const rest = id.slice(PREFIX.length);
  const slash = rest.indexOf("/");
  if (slash < 0) return undefined;
  const taskId = rest.slice(0, slash);
  const key = rest.slice(slash + 1);
  return isTaskId(taskId) && isInputKey(key) ? { taskId, key } : undefined;
}
