/**
 * Which task events become webhook events, and their JSON body: a pure mapping, so it is
 * unit-tested without a runtime. The body names the task and where to pull it from; the
 * result itself is never pushed (the receiver fetches it with its own credentials).
 */
import {
  elicitationRequest,
  isTerminal,
  pendingInputs,
  taskResourceUri,
  type TaskEvent,
  type Progress,
  type TaskRecord,
  type TaskStatus,
  type PartialPiece,
} from "../core";
import type { WebhookRegistration } from "./registration";

export type WebhookEventType =
  | "task.completed"
  | "task.failed"
  | "task.cancelled"
  | "task.input_required"
  | "task.status"
  | "task.progress"
  | "task.partial";

/** One queued delivery. `id` is the Standard Webhooks `webhook-id`: the same on every retry of the event. */
export interface WebhookMessage {
  v: 1;
  id: string;
  principal: string;
  taskId: string;
  url: string;
  type: WebhookEventType;
  /** The exact JSON body, fixed at enqueue time so every attempt signs the same bytes. */
  body: string;
}

/** Progress webhooks are throttled to at most one per this many milliseconds. */
export const PROGRESS_INTERVAL_MS = 1000;
const MAX_STATUS_MESSAGE = 1000;

function typeForStatus(status: TaskStatus, webhook: WebhookRegistration): WebhookEventType | undefined {
  switch (status) {
    case "completed":
    case "failed":
    case "cancelled":
      return `task.${status}`;
    case "input_required":
      return "task.input_required";
    case "working":
      return webhook.events.includes("working") ? "task.status" : undefined;
  }
}

export interface WebhookMapping {
  messages: WebhookMessage[];
  /** When the last progress webhook was produced, for the throttle's next call. */
  lastProgressAt: number | undefined;
}

export function webhookMessagesFor(
  record: TaskRecord,
  events: readonly TaskEvent[],
  webhook: WebhookRegistration,
  lastProgressAt: number | undefined,
): WebhookMapping {
  const messages: WebhookMessage[] = [];
  let throttle = lastProgressAt;
  for (const event of events) {
    let type: WebhookEventType | undefined;
    let status = record.status;
    let statusMessage = record.statusMessage;
    let progress: Progress | undefined;
    let piece: PartialPiece | undefined;
    if (event.type === "status") {
      status = event.data.status;
      statusMessage = event.data.statusMessage;
      type = typeForStatus(status, webhook);
    } else if (event.type === "progress" && webhook.events.includes("progress") && !isTerminal(record.status)) {
      if (throttle !== undefined && event.at - throttle < PROGRESS_INTERVAL_MS) continue;
      throttle = event.at;
      type = "task.progress";
      progress = event.data;
    } else if (event.type === "partial" && webhook.events.includes("partial")) {
      // Never throttled: each piece is sent once, so a receiver can rebuild the output in order by `n`.
      type = "task.partial";
      piece = event.data;
    }
    if (!type) continue;
    messages.push({
      v: 1,
      id: `${record.taskId}.${event.seq}`,
      principal: record.principal,
      taskId: record.taskId,
      url: webhook.url,
      type,
      body: JSON.stringify(withPiece(webhookBody(record, type, event.at, status, statusMessage, progress), piece)),
    });
  }
  return { messages, lastProgressAt: throttle };
}

/**
 * What a `task.input_required` webhook adds: the questions (so a chat bot can render a button) and
 * where to POST the answer (`POST /tasks/{id}/input`, same auth), so the receiver needs no MCP client.
 */
function inputFields(record: TaskRecord, baseUrl: string | undefined) {
  const questions = Object.entries(pendingInputs(record));
  if (questions.length === 0) return {};
  return {
    inputRequests: Object.fromEntries(questions.map(([key, question]) => [key, elicitationRequest(question)])),
    ...(baseUrl !== undefined && { inputUrl: `${baseUrl}/tasks/${record.taskId}/input` }),
  };
}

/** A `task.partial` body carries its piece (`{ n, content }`) in `data.piece`. */
function withPiece<B extends { data: object }>(body: B, piece: PartialPiece | undefined): B {
  return piece ? { ...body, data: { ...body.data, piece } } : body;
}

function webhookBody(
  record: TaskRecord,
  type: WebhookEventType,
  at: number,
  status: TaskStatus,
  statusMessage: string | undefined,
  progress: Progress | undefined,
) {
  const { correlationId, baseUrl } = record.meta;
  return {
    type,
    timestamp: new Date(at).toISOString(),
    data: {
      taskId: record.taskId,
      status,
      ...(statusMessage !== undefined && { statusMessage: statusMessage.slice(0, MAX_STATUS_MESSAGE) }),
      ...(correlationId !== undefined && { correlationId }),
      resourceUri: taskResourceUri(record.taskId),
      ...(baseUrl !== undefined && { url: `${baseUrl}/tasks/${record.taskId}` }),
      ...(progress !== undefined && { progress }),
      ...(type === "task.input_required" && inputFields(record, baseUrl)),
    },
  };
}
