/**
 * A task's data: the record the TaskObject stores, and the era-neutral view every protocol shows.
 */
import type { JsonObject } from "../../json";
import type { InputAction } from "./questions";
import type { TaskMeta } from "./meta";
import type { PartialSummary } from "./partial-types";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";
export type RunPhase = "queued" | "running" | "sleeping" | "backoff" | "waiting_input" | "done";

export const TERMINAL_STATUSES: readonly TaskStatus[] = ["completed", "failed", "cancelled"];
export const isTerminal = (status: TaskStatus): boolean => TERMINAL_STATUSES.includes(status);

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

/** What `tasks/result` returns: the tool's result, or the JSON-RPC error the call ended with. */
export type TaskOutcome =
  | { kind: "result"; result: JsonObject }
  | { kind: "error"; error: { code: number; message: string } };

/** When the task first and last reported progress, and its first value: how fast it moves (poll-interval.ts). */
export interface ProgressPace {
  firstAt: number;
  first: number;
  lastAt: number;
}

export interface RunState {
  phase: RunPhase;
  /** Runs started so far (a resumed or retried run counts again). */
  runs: number;
  /** Thrown errors so far; compared with the retry policy. */
  failures: number;
  /** Runs in a row that lost their lease (the process died or hung); a run that ends normally resets it. */
  lostRuns?: number;
  delivered: boolean;
  /** If never delivered by then, the task's own alarm starts it. */
  dispatchBy: number;
  leaseId?: string;
  leaseUntil?: number;
  wakeAt?: number;
  /** Set while the job sleeps until its fanned-out items are done (fan-out/record-wait.ts); wakeAt is then the next redelivery check. */
  awaiting?: "fan-out";
  lastError?: string;
}

/**
 * A question the job asked (`job.elicit`), kept for the task's life so its key is never asked
 * again. The answer itself is stored beside the job's steps (the `answers` table, object/schema.ts).
 */
export interface AskedInput {
  message: string;
  requestedSchema: JsonObject;
  askedAt: number;
  /**
   * When a reader of the task's principal first received it (a read that showed it, a live stream or
   * the session's GET stream it was pushed to): written once (question-receipt.ts).
   */
  seenAt?: number;
  answeredAt?: number;
  action?: InputAction;
}

export interface TaskRecord {
  taskId: string;
  principal: string;
  tool: string;
  args: JsonObject;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  ttlMs: number;
  expiresAt: number;
  pollIntervalMs: number;
  progress?: Progress;
  pace?: ProgressPace;
  outcome?: TaskOutcome;
  /** The request's context kept for the task's life (progress token, correlation id, session, webhook). */
  meta: TaskMeta;
  run: RunState;
  /** Every question asked so far, by key (absent until the job first asks). */
  inputs?: Record<string, AskedInput>;
  /** The partial output published so far, summed up (absent until the first piece: partial.ts). */
  partial?: PartialSummary;
}

/** The questions the task waits on (asked, not yet answered), by key; empty once it has ended. */
export function pendingInputs(record: TaskRecord): Record<string, { message: string; requestedSchema: JsonObject }> {
  const pending: Record<string, { message: string; requestedSchema: JsonObject }> = {};
  if (isTerminal(record.status)) return pending;
  for (const [key, asked] of Object.entries(record.inputs ?? {})) {
    if (asked.answeredAt === undefined)
      pending[key] = { message: asked.message, requestedSchema: asked.requestedSchema };
  }
  return pending;
}

/** Whether `leaseId` names the live run of this task: only that run may write its outcome. */
export const holdsLease = (record: TaskRecord, leaseId: string): boolean =>
  !isTerminal(record.status) && record.run.phase === "running" && record.run.leaseId === leaseId;
