/**
 * The task state machine: pure functions from (record, input, now) to (record, events).
 * No I/O here, so every transition is unit-tested in microseconds; the TaskObject
 * persists what these return and performs the side effects.
 */
import { MAX_JOB_RETRY_DELAY_SECONDS } from "../../config";
import { plainText } from "./plain-text";
import { backoff } from "./backoff";
import { awaitFanOut } from "../fan-out/record-wait";
import { waitForInput } from "./input-wait";
import { paceAfter } from "./poll-interval";
import type { RunOutcome } from "./run-outcome";
import { resultEventData, type NewTaskEvent } from "./events";
import type { TaskMeta } from "./meta";
import { holdsLease, isTerminal, type Progress, type TaskOutcome, type TaskRecord, type TaskStatus } from "./record";
import type { JsonObject } from "../../json";
import { statusEvent, unchanged, type Transition } from "./transition";

export type { Transition };
const resultEvent = (outcome: TaskOutcome): NewTaskEvent => ({ type: "result", data: resultEventData(outcome) });

export interface NewTaskInput {
  taskId: string;
  principal: string;
  tool: string;
  args: JsonObject;
  requestedTtlMs?: number | null;
  defaultTtlMs: number;
  maxTtlMs: number;
  pollIntervalMs: number;
  dispatchGraceMs: number;
  meta?: TaskMeta;
}

/** The requested ttl, honoured up to the configured maximum; absent or null means the default. */
export function effectiveTtl(requested: number | null | undefined, defaultTtlMs: number, maxTtlMs: number): number {
  if (requested === undefined || requested === null || !Number.isFinite(requested) || requested <= 0) {
    return Math.min(defaultTtlMs, maxTtlMs);
  }
  return Math.min(Math.floor(requested), maxTtlMs);
}

export function newTask(input: NewTaskInput, now: number): Transition {
  const ttlMs = effectiveTtl(input.requestedTtlMs, input.defaultTtlMs, input.maxTtlMs);
  const record: TaskRecord = {
    taskId: input.taskId,
    principal: input.principal,
    tool: input.tool,
    args: input.args,
    status: "working",
    statusMessage: "Queued.",
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs,
    expiresAt: now + ttlMs,
    pollIntervalMs: input.pollIntervalMs,
    meta: input.meta ?? {},
    run: { phase: "queued", runs: 0, failures: 0, delivered: false, dispatchBy: now + input.dispatchGraceMs },
  };
  return { record, events: [statusEvent(record)] };
}

/** The queue delivered the job: it is due now. A duplicate delivery changes nothing. */
export function markDelivered(record: TaskRecord): Transition {
  if (record.run.delivered || record.run.phase !== "queued") return unchanged(record);
  return { record: { ...record, run: { ...record.run, delivered: true } }, events: [] };
}

/** Whether a run should start now: first start, wake from sleep or backoff, or a dead run's lease expired. */
export function isDueToRun(record: TaskRecord, now: number): boolean {
  if (isTerminal(record.status)) return false;
  const { run } = record;
  switch (run.phase) {
    case "queued":
      return run.delivered || now >= run.dispatchBy;
    case "sleeping":
    case "backoff":
      return now >= (run.wakeAt ?? 0);
    case "running":
      return now >= (run.leaseUntil ?? 0);
    case "waiting_input":
    case "done":
      // A waiting task becomes due when its last answer arrives (input-wait.ts moves it to sleeping).
      return false;
  }
}

/**
 * Start a run. A run still marked running has lost its lease: its process died (a crash, running out
 * of memory, a deploy) or hung. That run is restarted from its last finished step, but a job that
 * takes its process down every time would be restarted until its ttl: after `maxLostRuns` lost runs
 * in a row (no run ending normally in between) the task fails instead.
 */
export function beginRun(
  record: TaskRecord,
  leaseId: string,
  leaseMs: number,
  now: number,
  maxLostRuns = Number.POSITIVE_INFINITY,
): Transition {
  if (!isDueToRun(record, now)) return unchanged(record);
  const recovering = record.run.phase === "running";
  const lostRuns = recovering ? (record.run.lostRuns ?? 0) + 1 : 0;
  if (lostRuns >= maxLostRuns) {
    const why = `The job's process stopped responding ${lostRuns} times in a row (it crashed, ran out of memory or hung), so it is not restarted again.`;
    const failed = terminate(
      record,
      "failed",
      why,
      { kind: "result", result: { content: [{ type: "text", text: why }], isError: true } },
      now,
    );
    failed.record.run.lostRuns = lostRuns;
    failed.record.run.lastError = why;
    return failed;
  }
  const next: TaskRecord = {
    ...record,
    statusMessage: recovering ? "Resuming after the previous run stopped responding." : "Running.",
    lastUpdatedAt: now,
    run: {
      ...record.run,
      phase: "running",
      runs: record.run.runs + 1,
      lostRuns,
      leaseId,
      leaseUntil: now + leaseMs,
      wakeAt: undefined,
    },
  };
  const events: NewTaskEvent[] = [statusEvent(next)];
  if (recovering)
    events.unshift({
      type: "log",
      data: { level: "warning", message: "Lease expired; the job is restarted from its last finished step." },
    });
  return { record: next, events };
}

export function renewLease(record: TaskRecord, leaseId: string, leaseMs: number, now: number): Transition {
  if (!holdsLease(record, leaseId)) return unchanged(record);
  return { record: { ...record, run: { ...record.run, leaseUntil: now + leaseMs } }, events: [] };
}

function terminate(
  record: TaskRecord,
  status: TaskStatus,
  statusMessage: string,
  outcome: TaskOutcome,
  now: number,
): Transition {
  const next: TaskRecord = {
    ...record,
    status,
    statusMessage,
    outcome,
    lastUpdatedAt: now,
    run: { ...record.run, phase: "done", leaseId: undefined, leaseUntil: undefined, wakeAt: undefined },
  };
  return { record: next, events: [statusEvent(next), resultEvent(outcome)] };
}

/** The run returned. A result with `isError: true` fails the task, as the spec asks for tool calls. */
export function finishRun(record: TaskRecord, leaseId: string, result: JsonObject, now: number): Transition {
  if (!holdsLease(record, leaseId)) return unchanged(record);
  const failed = result["isError"] === true;
  return terminate(
    record,
    failed ? "failed" : "completed",
    failed ? "The tool reported an error." : "Completed.",
    { kind: "result", result },
    now,
  );
}

/** The run asked to sleep (or used up its slice): it stays `working` and wakes at `wakeAt`. */
export function yieldRun(
  record: TaskRecord,
  leaseId: string,
  wakeAt: number,
  message: string | undefined,
  now: number,
): Transition {
  if (!holdsLease(record, leaseId)) return unchanged(record);
  const next: TaskRecord = {
    ...record,
    statusMessage: message ?? record.statusMessage,
    lastUpdatedAt: message !== undefined && message !== record.statusMessage ? now : record.lastUpdatedAt,
    run: { ...record.run, phase: "sleeping", leaseId: undefined, leaseUntil: undefined, wakeAt },
  };
  return { record: next, events: next.statusMessage !== record.statusMessage ? [statusEvent(next)] : [] };
}

export interface RetryPolicy {
  maxAttempts: number;
  baseSeconds: number;
}

/** A throwing job's next try waits base · 2^(failures−1) seconds, at most an hour. */
export function retryDelayMs(failures: number, baseSeconds: number): number {
  return backoff(failures, baseSeconds, MAX_JOB_RETRY_DELAY_SECONDS) * 1000;
}

/** The run threw. Retry with exponential backoff until the policy is exhausted or the error is permanent. */
export function failRun(
  record: TaskRecord,
  leaseId: string,
  message: string,
  permanent: boolean,
  policy: RetryPolicy,
  now: number,
): Transition {
  if (!holdsLease(record, leaseId)) return unchanged(record);
  const failures = record.run.failures + 1;
  if (permanent || failures >= policy.maxAttempts) {
    const why = permanent ? message : `${message} (gave up after ${failures} attempt${failures === 1 ? "" : "s"})`;
    const result = { content: [{ type: "text", text: why }], isError: true };
    const failed = terminate(record, "failed", why, { kind: "result", result }, now);
    failed.record.run.failures = failures;
    failed.record.run.lastError = message;
    return failed;
  }
  const wakeAt = now + retryDelayMs(failures, policy.baseSeconds);
  const next: TaskRecord = {
    ...record,
    statusMessage: `Attempt ${failures} failed: ${message}. Retrying at ${new Date(wakeAt).toISOString()}.`,
    lastUpdatedAt: now,
    run: {
      ...record.run,
      phase: "backoff",
      failures,
      lastError: message,
      leaseId: undefined,
      leaseUntil: undefined,
      wakeAt,
    },
  };
  return {
    record: next,
    events: [
      { type: "log", data: { level: "warning", message: `Attempt ${failures} failed: ${message}` } },
      statusEvent(next),
    ],
  };
}

/**
 * The run ended with `outcome` (ports.ts): completed, yielded (asleep until `wakeAt`), asked for
 * input (waiting, input-wait.ts), failed (retried or given up), or aborted (cancelled or expired:
 * its terminal state is already written).
 */
export function endRun(
  record: TaskRecord,
  leaseId: string,
  outcome: RunOutcome,
  policy: RetryPolicy,
  now: number,
): Transition {
  switch (outcome.kind) {
    case "completed":
      return finishRun(record, leaseId, outcome.result, now);
    case "yielded": {
      const long = outcome.wakeAt - now > 5000;
      const message =
        outcome.statusMessage ??
        (long
          ? `Waiting until ${new Date(outcome.wakeAt).toISOString()}${outcome.reason ? `: ${outcome.reason}` : ""}.`
          : undefined);
      return yieldRun(record, leaseId, outcome.wakeAt, message, now);
    }
    case "input":
      return waitForInput(record, leaseId, outcome.questions, now);
    case "failed":
      return failRun(record, leaseId, outcome.message, outcome.permanent, policy, now);
    case "aborted":
      return unchanged(record);
    case "awaiting_fan_out":
      return awaitFanOut(record, leaseId, outcome.message, now);
  }
}

export type CancelResult = { ok: true; transition: Transition } | { ok: false; reason: "terminal" };

export function cancelTask(record: TaskRecord, message: string, now: number): CancelResult {
  if (isTerminal(record.status)) return { ok: false, reason: "terminal" };
  const result = { content: [{ type: "text", text: `Task cancelled: ${message}` }], isError: true };
  return { ok: true, transition: terminate(record, "cancelled", message, { kind: "result", result }, now) };
}

/** The queue gave up delivering the job (dead-letter path): fail with a JSON-RPC internal error. */
export function failDelivery(record: TaskRecord, message: string, now: number): Transition {
  if (isTerminal(record.status)) return unchanged(record);
  return terminate(record, "failed", message, { kind: "error", error: { code: -32603, message } }, now);
}

/**
 * Progress must increase (MCP progress rule); a replayed run's repeats are dropped, so each value is
 * logged once. Its time goes into the task's pace, which sets the poll interval (poll-interval.ts).
 */
export function recordProgress(record: TaskRecord, progress: Progress, now: number): Transition {
  if (isTerminal(record.status) || !Number.isFinite(progress.progress)) return unchanged(record);
  if (record.progress && progress.progress <= record.progress.progress) return unchanged(record);
  const clean: Progress = { progress: progress.progress };
  if (progress.total !== undefined && Number.isFinite(progress.total)) clean.total = progress.total;
  if (progress.message !== undefined) clean.message = plainText(progress.message);
  return {
    record: { ...record, progress: clean, pace: paceAfter(record, clean.progress, now) },
    events: [{ type: "progress", data: { ...clean } }],
  };
}

/** When the task's single alarm must next fire. */
export function nextAlarmAt(record: TaskRecord): number {
  if (isTerminal(record.status)) return record.expiresAt;
  const { run } = record;
  let due: number;
  switch (run.phase) {
    case "queued":
      due = run.delivered ? 0 : run.dispatchBy;
      break;
    case "sleeping":
    case "backoff":
      due = run.wakeAt ?? 0;
      break;
    case "running":
      due = run.leaseUntil ?? 0;
      break;
    case "waiting_input":
    case "done":
      due = record.expiresAt;
  }
  return Math.min(due, record.expiresAt);
}

export const isExpired = (record: TaskRecord, now: number): boolean => now >= record.expiresAt;
