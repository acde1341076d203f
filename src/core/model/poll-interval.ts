/**
 * How long a client should wait before it looks at a task again (`pollInterval` in 2025,
 * `pollIntervalMs` in 2026): short while the task is young or about to end, long while it is far
 * from done, asleep, or waiting on a person. Pure: everything comes from the record and `now`, so
 * a client that polls only at the interval it is told sees the end soon after it happens and asks
 * little in between (docs/polling.md).
 */
// Types only: record.ts calls this module to build every view of a task.
import type { ProgressPace, TaskRecord } from "./record";

export interface PollPolicy {
  /** Never suggest less: a poll costs a Worker and an object request. */
  minMs: number;
  /** Longest wait while progress and total give an estimate of the end (an estimate can be wrong). */
  estimatedCapMs: number;
  /** Longest wait for a task that gives no estimate (no progress, or no total). */
  unknownCapMs: number;
  /** Longest wait for a task that cannot move by itself: a question for a person, a durable sleep. */
  idleCapMs: number;
  /** Fraction of the estimated time left to wait: halving the gap at each poll bounds the lateness by it. */
  leftFraction: number;
  /** Fraction of the task's age to wait without an estimate: the interval grows with the task. */
  ageFraction: number;
  /**
   * A task estimated to take this long or less in all is short: its client is told to look about
   * once a second (shortCapMs), so its first seconds of progress are seen as they happen, while a
   * long task's estimate keeps its polls few.
   */
  shortTaskMs: number;
  shortCapMs: number;
}

export const POLL_POLICY: PollPolicy = {
  minMs: 500,
  estimatedCapMs: 60_000,
  unknownCapMs: 30_000,
  idleCapMs: 300_000,
  leftFraction: 0.5,
  ageFraction: 0.25,
  shortTaskMs: 30_000,
  shortCapMs: 1000,
};

const clamp = (ms: number, low: number, high: number): number => Math.min(high, Math.max(low, ms));

/** When the task last went back to work after waiting for a person (its last answer), if ever. */
function resumedAt(record: TaskRecord): number | undefined {
  const answered = Object.values(record.inputs ?? {}).flatMap((input) =>
    input.answeredAt === undefined ? [] : [input.answeredAt],
  );
  return answered.length > 0 ? Math.max(...answered) : undefined;
}

/** The task's pace after it reports progress `value` at `now`. */
export function paceAfter(record: TaskRecord, value: number, now: number): ProgressPace {
  const { pace, progress } = record;
  const resumed = resumedAt(record);
  // Waiting for a person is not work: a pace that began before the last answer starts again from it.
  if (pace && progress && resumed !== undefined && pace.lastAt < resumed)
    return { firstAt: resumed, first: progress.progress, lastAt: now };
  return pace ? { ...pace, lastAt: now } : { firstAt: now, first: value, lastAt: now };
}

/**
 * When the task should be done (ms since the epoch), from its progress rate at work, or undefined
 * without progress and total. Time spent waiting for a person is not work: the pace starts again
 * from the last answer. The one estimate of the end: the poll interval and the sentences a model
 * reads (the snapshot's `estimatedEndAt`) both come from it.
 */
export function estimatedEndAt(record: TaskRecord): number | undefined {
  const { progress, pace } = record;
  if (!progress || progress.total === undefined || !pace) return undefined;
  // Two reports give the pace since the first; a single one, the pace since the task began its work.
  const began = Math.max(record.createdAt, resumedAt(record) ?? 0);
  const [from, since] =
    progress.progress > pace.first && pace.lastAt > pace.firstAt ? [pace.first, pace.firstAt] : [0, began];
  const perMs = (progress.progress - from) / (pace.lastAt - since);
  if (!(perMs > 0) || !Number.isFinite(perMs)) return undefined;
  return pace.lastAt + Math.max(0, progress.total - progress.progress) / perMs;
}

/**
 * The time the task should still take (estimatedEndAt), or undefined without progress and total.
 * Negative once the task is late for its own estimate (by that much).
 */
export function estimatedMsLeft(record: TaskRecord, now: number): number | undefined {
  const end = estimatedEndAt(record);
  return end === undefined ? undefined : end - now;
}

/** When the task, now asleep or backing off, runs again (its durable sleep's end), if it is so. */
function wakesIn(record: TaskRecord, now: number): number {
  const { run } = record;
  const asleep = (run.phase === "sleeping" && run.awaiting === undefined) || run.phase === "backoff";
  return asleep && run.wakeAt !== undefined ? run.wakeAt - now : 0;
}

/** How long a question has waited for an answer (the oldest one still pending). */
function questionAge(record: TaskRecord, now: number): number {
  const asked = Object.values(record.inputs ?? {})
    .filter((input) => input.answeredAt === undefined)
    .map((input) => input.askedAt);
  return now - (asked.length > 0 ? Math.min(...asked) : record.lastUpdatedAt);
}

/**
 * The interval to suggest for `record` at `now`, in whole milliseconds.
 *
 * @example pollIntervalMs(record, Date.now()) // 500 for a new task, ~45 000 early in a 90-s countdown
 */
export function pollIntervalMs(record: TaskRecord, now: number, policy: PollPolicy = POLL_POLICY): number {
  // An ended task does not change: the interval no longer matters.
  if (record.status !== "working" && record.status !== "input_required") return record.pollIntervalMs;
  const { minMs } = policy;
  let ms: number;
  if (record.status === "input_required") {
    // A person may answer soon after being asked, or days later: grow with the wait.
    ms = clamp(questionAge(record, now) * 0.5, minMs, policy.idleCapMs);
  } else {
    const left = estimatedMsLeft(record, now);
    // Without an estimate, grow with the time the task has been at work (since its last answer).
    const age = now - Math.max(record.createdAt, resumedAt(record) ?? 0);
    if (left === undefined) ms = clamp(age * policy.ageFraction, minMs, policy.unknownCapMs);
    else if (left > 0 && age + left <= policy.shortTaskMs)
      ms = clamp(left * policy.leftFraction, minMs, policy.shortCapMs);
    else if (left > 0) ms = clamp(left * policy.leftFraction, minMs, policy.estimatedCapMs);
    // Late for its own estimate: look often at first, then less and less.
    else ms = clamp(-left * policy.ageFraction, minMs, policy.unknownCapMs);
    // Nothing runs before a durable sleep ends (only a cancel, which the canceller knows of).
    ms = Math.max(ms, Math.min(wakesIn(record, now), policy.idleCapMs));
  }
  // Past the ttl the task is gone: look once more before then.
  ms = Math.min(ms, Math.max(minMs, record.expiresAt - now));
  return Math.round(ms);
}
