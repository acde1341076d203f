/**
 * The TaskObject's side of fan-outs: what the step consumer's calls (claim, result, failure,
 * heartbeat) do to the task, and what its alarm does while the job waits: send the items that are
 * due (the first time, or again after a lost message), and wake the job once their results are in.
 */
import { fanOutProgress, isAwaitingFanOut, rearmFanOutWait, wakeFromFanOut } from "./record-wait";
import type { FailOutcome } from "./items";
import type { StepMessage } from "./step-message";
import type { FanOuts, FinishedItem } from "./ledger";
import type { Transition } from "../model/machine";
import type { NewTaskEvent } from "../model/events";
import { isTerminal, type Progress, type TaskRecord } from "../model/record";

/** Most messages one alarm sends; the rest go at once from the next alarm, so no alarm runs long. */
const MAX_SENDS_PER_ALARM = 1000;

/** What a claim answers the consumer: run these, acknowledge the rest. */
export type StepClaim =
  | { kind: "gone" }
  | {
      kind: "claimed";
      tool: string;
      step: string;
      items: { index: number; attempt: number; input: string }[];
      skipped: number[];
    };

export type StepFailure = FailOutcome | { kind: "gone" };

export interface FanOutHostDeps {
  fanOuts: FanOuts;
  /** The record, unless the task is unknown or has expired. */
  liveRecord(): TaskRecord | undefined;
  commit(before: TaskRecord, transition: Transition): Promise<void>;
  /** Appends events that change nothing in the record (a log line). */
  append(events: NewTaskEvent[]): void;
  setAlarm(at: number): Promise<void>;
  send(messages: StepMessage[]): Promise<void>;
  nextAlarmAt(record: TaskRecord): number;
}

const statusMessage = (finished: number, total: number, running: number): string =>
  `${finished} of ${total} items done${running > 0 ? `, ${running} running` : ""}.`;

export class FanOutHost {
  constructor(private readonly deps: FanOutHostDeps) {}

  /** A running task: what its step consumer may touch. A finished one wants nothing more run. */
  private workingRecord(): TaskRecord | undefined {
    const record = this.deps.liveRecord();
    return record && !isTerminal(record.status) ? record : undefined;
  }

  async claim(key: string, indexes: readonly number[]): Promise<StepClaim> {
    const record = this.workingRecord();
    const batch = record && this.deps.fanOuts.claim(key, indexes, Date.now());
    if (!record || !batch) return { kind: "gone" };
    if (batch.finished.length > 0) await this.applyFinished(batch.finished, key);
    else if (batch.claimed.length > 0) await this.refresh(record, key, [], false);
    return { kind: "claimed", tool: record.tool, step: batch.step, items: batch.claimed, skipped: batch.skipped };
  }

  /** Stores an item's result; `taken` runs, in the same turn, only when the result is the one kept. */
  async done(key: string, index: number, value: string, taken?: () => void): Promise<"stored" | "ignored" | "gone"> {
    if (!this.workingRecord()) return "gone";
    const finished = this.deps.fanOuts.complete(key, index, value);
    if (!finished) return "ignored";
    taken?.();
    await this.applyFinished([finished], key);
    return "stored";
  }

  async failed(key: string, index: number, message: string, permanent: boolean): Promise<StepFailure> {
    const record = this.workingRecord();
    if (!record) return { kind: "gone" };
    const { outcome, finished } = this.deps.fanOuts.fail(key, index, message, permanent, Date.now());
    const header = this.deps.fanOuts.header(key);
    if (outcome.kind === "retry" && header) {
      const note = `${header.step}[${index}] attempt failed: ${message}; retrying in ${outcome.delaySeconds} s.`;
      this.deps.append([{ type: "log", data: { level: "warning", message: note.slice(0, 2000) } }]);
    }
    if (finished) await this.applyFinished([finished], key);
    return outcome;
  }

  /** The dead-letter path: the queue gave up delivering the item. */
  async giveUp(key: string, index: number, message: string): Promise<void> {
    if (!this.workingRecord()) return;
    const finished = this.deps.fanOuts.giveUp(key, index, message);
    if (finished) await this.applyFinished([finished], key);
  }

  /** Returns the items the consumer should stop: all of them once the task is cancelled, expired or gone. */
  async heartbeat(key: string, indexes: readonly number[]): Promise<number[]> {
    if (!this.workingRecord()) return [...indexes];
    return this.deps.fanOuts.heartbeat(key, indexes, Date.now());
  }

  /**
   * The alarm of a job waiting on its fan-outs: wake it if they are in; otherwise send what is due
   * and set the next check. Returns the record to run now, if the job woke.
   */
  async onAlarm(record: TaskRecord, now: number): Promise<TaskRecord | undefined> {
    if (this.deps.fanOuts.allIn()) return this.wake(record, now);
    const { send, finished } = this.deps.fanOuts.takeDue(now, MAX_SENDS_PER_ALARM);
    if (finished.length > 0) {
      const woken = await this.applyFinished(finished, finished[0]?.header.key ?? "");
      if (woken) return woken;
    }
    if (send.length > 0) {
      const messages = send.map(
        ({ key, index }): StepMessage => ({
          v: 1,
          principal: record.principal,
          taskId: record.taskId,
          fanOut: key,
          index,
        }),
      );
      // A failed send leaves the items due again at their next check; the alarm retries them then.
      await this.deps
        .send(messages)
        .catch((error: unknown) =>
          console.error("fan-out send failed; retried at the next check", record.taskId, error),
        );
    }
    const current = this.deps.liveRecord();
    if (!current || !isAwaitingFanOut(current)) return undefined;
    const next = send.length >= MAX_SENDS_PER_ALARM ? now : (this.deps.fanOuts.nextCheckAt() ?? now + 60_000);
    const rearmed = rearmFanOutWait(current, next);
    await this.deps.commit(current, rearmed);
    await this.deps.setAlarm(this.deps.nextAlarmAt(rearmed.record));
    return undefined;
  }

  private async wake(record: TaskRecord, now: number): Promise<TaskRecord | undefined> {
    const woken = wakeFromFanOut(record, now);
    if (woken.record === record) return undefined;
    await this.deps.commit(record, woken);
    return woken.record;
  }

  /**
   * Items reached their end: a `step` event for each result (a log line for a failure), the task's
   * progress and statusMessage, and the job woken if it has nothing left to wait for. Returns the
   * woken record (the caller is the alarm) or arms the alarm to run it now.
   */
  private async applyFinished(finished: readonly FinishedItem[], key: string): Promise<TaskRecord | undefined> {
    const record = this.workingRecord();
    if (!record) return undefined;
    const events: NewTaskEvent[] = finished.map(({ header, index, ok, error }) =>
      ok
        ? { type: "step", data: { name: `${header.step}[${index}]` } }
        : {
            type: "log",
            data: {
              level: header.settle ? "warning" : "error",
              message: `${header.step}[${index}] failed: ${error ?? "unknown error"}`.slice(0, 2000),
            },
          },
    );
    await this.refresh(record, finished.at(-1)?.header.key ?? key, events, true);
    const abandoned = finished.some((f) => !f.ok && f.header.abandoned);
    if (!abandoned && !this.deps.fanOuts.allIn()) return undefined;
    const current = this.deps.liveRecord();
    if (!current) return undefined;
    const now = Date.now();
    const woken = await this.wake(current, now);
    if (woken) await this.deps.setAlarm(now);
    return woken;
  }

  /** Commits `events` with the fan-out's statusMessage as it stands now, and its progress when items finished. */
  private async refresh(record: TaskRecord, key: string, events: NewTaskEvent[], finished: boolean): Promise<void> {
    const header = this.deps.fanOuts.header(key);
    if (!header) {
      this.deps.append(events);
      return;
    }
    const done = header.done + header.failed;
    // No progress message: the statusMessage says the same, and the 2026 view shows both side by side.
    const progress: Progress | undefined =
      header.progressBase === undefined || !finished
        ? undefined
        : { progress: header.progressBase + done, total: header.progressBase + header.total };
    const moved = fanOutProgress(
      record,
      progress,
      statusMessage(done, header.total, this.deps.fanOuts.runningCount(key)),
      Date.now(),
    );
    if (moved.record === record) this.deps.append(events);
    else await this.deps.commit(record, { record: moved.record, events: [...events, ...moved.events] });
  }
}
