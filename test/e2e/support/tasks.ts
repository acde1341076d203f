/** Starting tasks (2025-11-25 task-augmented tools/call) and reading them over plain HTTP: the task document and its event log. */
import { parseSse, rpc } from "./mcp";

/** Starts `name` as a task (task-augmented tools/call, with `meta` as its `_meta`) and returns its id. */
export async function startTask(
  baseUrl: string,
  name: string,
  args: Record<string, unknown>,
  headers: Record<string, string> = {},
  meta?: Record<string, unknown>,
): Promise<string> {
  const params = { name, arguments: args, task: { ttl: 600_000 }, ...(meta && { _meta: meta }) };
  const reply = await rpc(baseUrl, { jsonrpc: "2.0", id: 1, method: "tools/call", params }, { headers });
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
  /** The versions of its tool its runs ran, and a journal mismatch it was told of (docs/protocol.md). */
  journal?: unknown;
}

export async function getTask(baseUrl: string, taskId: string, headers: Record<string, string> = {}): Promise<TaskDoc> {
  const response = await fetch(`${baseUrl}/tasks/${taskId}`, { headers });
  if (!response.ok) throw new Error(`GET /tasks/${taskId}: ${response.status}`);
  return (await response.json()) as TaskDoc;
}

/** GET /tasks/{id} as it answered, for tests that expect a 404 as well as a document. */
export async function taskResponse(
  baseUrl: string,
  taskId: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${baseUrl}/tasks/${taskId}`, { headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

export interface LoggedEvent {
  id: string;
  event: string;
  data: Record<string, unknown>;
}

/** The whole event log of a task that has ended (GET /tasks/{id}/events closes after the terminal event). */
export async function eventLog(
  baseUrl: string,
  taskId: string,
  headers: Record<string, string> = {},
): Promise<LoggedEvent[]> {
  const text = await (await fetch(`${baseUrl}/tasks/${taskId}/events`, { headers })).text();
  return parseSse(text).map((e) => ({
    id: e.id ?? "",
    event: e.event ?? "message",
    data: JSON.parse(e.data) as Record<string, unknown>,
  }));
}
