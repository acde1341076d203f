/**
 * The task as data for `structuredContent`: what the check-back tools, the still-running
 * fallback and the task card read, beside the prose the model reads. Era-free and flat, so a
 * program (or the card) needs no parsing of text: `progress`/`total`/`message` sit at the top.
 */
import { isTerminal, type TaskSnapshot, type TaskStatus } from "../core";
import type { JsonObject } from "../json";
import { inputRequestsOf, type InputRequest } from "./input-requests";

export interface TaskStatusData {
  taskId: string;
  tool: string;
  status: TaskStatus;
  statusMessage?: string;
  /** Work done so far in the tool's own unit (0 until the job reports any). */
  progress: number;
  total?: number;
  /** The latest progress message, else the status message. */
  message?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number;
  /** Milliseconds a poller should wait between looks. */
  pollInterval: number;
  /** Once completed (or failed with a tool result): the tool's `CallToolResult`. */
  result?: JsonObject;
  /** Once failed with a protocol error instead of a result. */
  error?: { code: number; message: string };
  /** Pending questions keyed by request key, while `status` is `input_required`. */
  inputRequests?: Record<string, InputRequest>;
}

export function taskStatusData(snapshot: TaskSnapshot): TaskStatusData {
  const { task, progress, outcome } = snapshot;
  const message = progress?.message ?? task.statusMessage;
  const data: TaskStatusData = {
    taskId: task.taskId,
    tool: snapshot.tool,
    status: task.status,
    ...(task.statusMessage !== undefined && { statusMessage: task.statusMessage }),
    progress: progress?.progress ?? 0,
    ...(progress?.total !== undefined && { total: progress.total }),
    ...(message !== undefined && { message }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttl: task.ttl,
    pollInterval: task.pollInterval,
  };
  if (isTerminal(task.status) && outcome) {
    if (outcome.kind === "result") data.result = outcome.result;
    else data.error = outcome.error;
  }
  const inputRequests = inputRequestsOf(snapshot);
  if (inputRequests) data.inputRequests = inputRequests;
  return data;
}

/** As `structuredContent` (a plain JSON object). */
export const taskStatusContent = (snapshot: TaskSnapshot): JsonObject => ({ ...taskStatusData(snapshot) });
