/** Starting tasks and reading them over plain HTTP, for tests that watch them elsewhere (pages). */
import { rpc } from "./mcp";

/** Starts `name` as a task (task-augmented tools/call) and returns its id. */
export async function startTask(baseUrl: string, name: string, args: Record<string, unknown>, headers: Record<string, string> = {}): Promise<string> {
  const reply = await rpc(baseUrl, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, task: { ttl: 600_000 } } }, { headers });
  const taskId = (reply.body as { result?: { task?: { taskId?: string } } } | undefined)?.result?.task?.taskId;
  if (!taskId) throw new Error(`no task created: ${reply.status} ${reply.text}`);
  return taskId;
}

export interface TaskDoc {
  taskId: string;
  status: string;
  statusMessage?: string;
  tool: string;
  progress?: { progress: number; total?: number; message?: string };
  result?: unknown;
  error?: unknown;
}

export async function getTask(baseUrl: string, taskId: string, headers: Record<string, string> = {}): Promise<TaskDoc> {
  const response = await fetch(`${baseUrl}/tasks/${taskId}`, { headers });
  if (!response.ok) throw new Error(`GET /tasks/${taskId}: ${response.status}`);
  return (await response.json()) as TaskDoc;
}
