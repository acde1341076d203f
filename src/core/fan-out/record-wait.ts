/**
 * The task record's side of a fan-out, as pure transitions: the job's run ends and it sleeps until
 * its fanned-out items are in (holding no run), the alarm checks for lost items meanwhile, stored
 * results move its progress, and the last one wakes it. Items themselves: items.ts.
 */
import { paceAfter } from "../model/poll-interval";
import type { NewTaskEvent } from "../model/events";
import { holdsLease, isTerminal, type Progress, type TaskRecord } from "../model/record";
import { toTaskView } from "../model/view";

interface Transition {
  record: TaskRecord;
  events: NewTaskEvent[];
}

const unchanged = (record: TaskRecord): Transition => ({ record, events: [] });

export const isAwaitingFanOut = (record: TaskRecord): boolean =>
  !isTerminal(record.status) && record.run.phase === "sleeping" && record.run.awaiting === "fan-out";

/**
 * The run fanned items out and ended. The task stays `working`, asleep with nothing running; its
 * alarm fires at once to send the items' messages, and then at each redelivery check.
 */
export function awaitFanOut(record: TaskRecord, leaseId: string, message: string, now: number): Transition {
  if (!holdsLease(record, leaseId)) return unchanged(record);
  const next: TaskRecord = {
    ...record,
    statusMessage: message,
    lastUpdatedAt: now,
    run: {
      ...record.run,
      phase: "sleeping",
      awaiting: "fan-out",
      leaseId: undefined,
      leaseUntil: undefined,
      wakeAt: now,
    },
  };
  return {
    record: next,
    events: message !== record.statusMessage ? [{ type: "status", data: toTaskView(next, now) }] : [],
  };
}

/** The next redelivery check (the alarm's time while the job waits); never past the task's expiry. */
export function rearmFanOutWait(record: TaskRecord, checkAt: number): Transition {
  if (!isAwaitingFanOut(record)) return unchanged(record);
  const wakeAt = Math.min(checkAt, record.expiresAt);
  if (record.run.wakeAt === wakeAt) return unchanged(record);
  return { record: { ...record, run: { ...record.run, wakeAt } }, events: [] };
}

/** Every item the job waits for is in (or one failed for good): wake it now, to replay up to its fan-out. */
export function wakeFromFanOut(record: TaskRecord, now: number): Transition {
  if (!isAwaitingFanOut(record)) return unchanged(record);
  return { record: { ...record, run: { ...record.run, awaiting: undefined, wakeAt: now } }, events: [] };
}

/**
 * How far the fan-out has come, as the task's progress (an event each time it moves) and its
 * statusMessage. The message changes with every claim and result, so it is kept without a status
 * event: one per item would be a webhook and a stream notification each.
 */
export function fanOutProgress(
  record: TaskRecord,
  progress: Progress | undefined,
  statusMessage: string,
  now: number,
): Transition {
  if (isTerminal(record.status)) return unchanged(record);
  const moves = progress !== undefined && (!record.progress || progress.progress > record.progress.progress);
  if (!moves && statusMessage === record.statusMessage) return unchanged(record);
  const next: TaskRecord = {
    ...record,
    statusMessage,
    lastUpdatedAt: now,
    ...(moves && { progress, pace: paceAfter(record, progress.progress, now) }),
  };
  return { record: next, events: moves ? [{ type: "progress", data: { ...progress } }] : [] };
}
