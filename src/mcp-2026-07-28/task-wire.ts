/**
 * A task as the Tasks extension (2026-07-28) shows it: `CreateTaskResult` and the `DetailedTask` of
 * `tasks/get` and `notifications/tasks`, built from the core's era-free snapshot. Two readings
 * differ from the 2025 view of the same task: a tool result with `isError: true` is a `completed`
 * task (only a JSON-RPC error is `failed`), and progress shows in `statusMessage`, since the
 * extension has no progress notifications.
 */
import { isJsonValue, toJsonValue, type JsonValue } from "@modelcontextprotocol/ext-tasks/core";
import {
  InputRequestsV2Schema,
  type CreateTaskResultV2,
  type DetailedTaskV2,
  type InputRequestsV2,
  type TaskStatusV2,
  type TaskV2,
} from "@modelcontextprotocol/ext-tasks/core/v2";
import { plainText, elicitationRequest, echoMeta, type Progress, type TaskSnapshot } from "../core";
import type { JsonObject } from "../json";
import { shortNumber } from "../protocol/short-number";

type WireObject = Readonly<Record<string, JsonValue>>;

const isArray = (value: unknown): value is readonly unknown[] => Array.isArray(value);

/** Stored results come from JSON, so this is a check, not a conversion, in practice. */
function wireObject(value: JsonObject): WireObject {
  if (isJsonValue(value)) return value;
  const normalized = toJsonValue(value);
  return typeof normalized === "object" && normalized !== null && !isArray(normalized) ? normalized : {};
}

/** The 2026 status: a tool's `isError` result completes the task; a JSON-RPC error fails it. */
export function status20260728(snapshot: Pick<TaskSnapshot, "task" | "outcome">): TaskStatusV2 {
  const { status } = snapshot.task;
  if (status === "failed" && snapshot.outcome?.kind === "result") return "completed";
  return status;
}

const MAX_STATUS_MESSAGE = 200;

/** "3/10", "3/10 · copying b.txt": the current progress in a few characters. */
export function progressText(progress: Progress): string {
  const amount =
    progress.total !== undefined
      ? `${shortNumber(progress.progress)}/${shortNumber(progress.total)}`
      : shortNumber(progress.progress);
  return progress.message ? `${amount} · ${progress.message}` : amount;
}

/**
 * The core's message, with the current progress while the task works, and the newest partial
 * piece once it has published any (docs/partial-results.md): short, and always the latest.
 */
export function statusMessage(snapshot: Pick<TaskSnapshot, "task" | "progress" | "partial">): string | undefined {
  const base = snapshot.task.statusMessage;
  const newest = snapshot.partial?.newest.at(-1);
  if (snapshot.task.status !== "working" || (!snapshot.progress && !newest)) return base;
  const parts = [base ? base.replace(/\.$/, "") : "Working"];
  if (snapshot.progress) parts.push(progressText(snapshot.progress));
  if (newest) parts.push(`output ${newest.n}: ${newest.text}`);
  const text = plainText(parts.join(" · "));
  return text.length > MAX_STATUS_MESSAGE ? `${text.slice(0, MAX_STATUS_MESSAGE - 1)}…` : text;
}

function taskBase(snapshot: TaskSnapshot): Omit<TaskV2, "status"> {
  const { task } = snapshot;
  const message = statusMessage(snapshot);
  return {
    taskId: task.taskId,
    ...(message !== undefined && { statusMessage: message }),
    createdAt: task.createdAt,
    lastUpdatedAt: task.lastUpdatedAt,
    ttlMs: task.ttl,
    pollIntervalMs: task.pollInterval,
  };
}

/**
 * The questions a task waits on, as `elicitation/create` requests (form mode) by key: what
 * `tasks/get`, `notifications/tasks` and a multi round-trip `input_required` result carry. Checked
 * with the extension's own schema; a form it would refuse (none a job can ask passes ours and fails
 * it) is left out rather than sent malformed.
 */
export function pendingInputRequests(snapshot: TaskSnapshot): InputRequestsV2 {
  const requests: InputRequestsV2 = {};
  for (const [key, question] of Object.entries(snapshot.inputRequests ?? {})) {
    const parsed = InputRequestsV2Schema.safeParse({ [key]: elicitationRequest(question) });
    if (parsed.success) Object.assign(requests, parsed.data);
  }
  return requests;
}

/**
 * The tool's result as the call would have answered it in this era (so `resultType: "complete"`,
 * which requesters validate on the inlined result too), with the correlation id and no 2025
 * `related-task` key.
 */
export function inlinedResult(snapshot: TaskSnapshot, result: JsonObject): WireObject {
  const meta = echoMeta(snapshot.meta);
  const existing = typeof result["_meta"] === "object" && result["_meta"] !== null ? result["_meta"] : {};
  return wireObject({ ...result, resultType: "complete", ...(meta && { _meta: { ...existing, ...meta } }) });
}

/** What `tasks/get` answers and `notifications/tasks` carries, without the result envelope. */
export function detailedTask(snapshot: TaskSnapshot): DetailedTaskV2 {
  const base = taskBase(snapshot);
  const status = status20260728(snapshot);
  const { outcome } = snapshot;
  switch (status) {
    case "completed":
      return { ...base, status, result: outcome?.kind === "result" ? inlinedResult(snapshot, outcome.result) : {} };
    case "failed":
      return {
        ...base,
        status,
        error:
          outcome?.kind === "error"
            ? outcome.error
            : { code: -32603, message: snapshot.task.statusMessage ?? "The task failed." },
      };
    case "input_required":
      return { ...base, status, inputRequests: pendingInputRequests(snapshot) };
    case "working":
    case "cancelled":
      return { ...base, status };
  }
}

/** The `_meta` a task's results echo: the client's correlation id, if it gave one. */
export function taskResultMeta(snapshot: TaskSnapshot): WireObject | undefined {
  const meta = echoMeta(snapshot.meta);
  return meta ? wireObject(meta) : undefined;
}

/** The handle a task-capable `tools/call` answers with once the task is durable. */
export function createTaskResult(snapshot: TaskSnapshot): CreateTaskResultV2 {
  const meta = taskResultMeta(snapshot);
  return { ...taskBase(snapshot), status: status20260728(snapshot), resultType: "task", ...(meta && { _meta: meta }) };
}
