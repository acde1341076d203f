/**
 * Running a task's job inside its TaskObject, one slice at a time: take the lease (beginRun),
 * renew it while the job runs (heartbeat), call the injected JobRunner with a JobHost over the
 * task's storage, and apply how the run ended (endRun). The lease in the record decides who may
 * run; the run alive in this isolate is remembered so the alarm can tell it from a dead one, and
 * so a cancel or the task's expiry can abort it.
 */
import type { Settings } from "../../config";
import type { FanOuts } from "../fan-out/ledger";
import { beginRun, endRun, renewLease, type Transition } from "../model/machine";
import type { RunOutcome } from "../model/run-outcome";
import type { JobRunner } from "../ports";
import type { NewTaskEvent } from "../model/events";
import type { TaskRecord } from "../model/record";
import { taskJobHost } from "./job-host";
import type { TaskStorage } from "./storage";

export interface TaskRunsDeps {
  storage: TaskStorage;
  fanOuts: FanOuts;
  /** Why a new fan-out cannot be sent (the step queue is not bound), if so. */
  fanOutUnavailable?: string | undefined;
  settings: Settings;
  runJob: JobRunner;
  commit(before: TaskRecord, transition: Transition): Promise<void>;
  append(events: NewTaskEvent[]): void;
  /** Sends the events committed so far to the task's readers now. */
  flush(): void;
  /** This object's id, as a callback's URL names it (model/callbacks.ts). */
  objectId: string;
}

/** What a caller of runSlice may ask for. */
export interface RunHooks {
  /** Hears the moment the run's outcome is written (before its own follow-ups). */
  onOutcome?(record: TaskRecord): void;
  /** The job's body waits for the next turn: the run's start is written now, with the caller's writes, but its job does not delay the caller's answer. */
  deferJob?: boolean;
}

export class TaskRuns {
  private active?: { leaseId: string; controller: AbortController; nudged: boolean };

  constructor(private readonly deps: TaskRunsDeps) {}

  /** The record's lease is held by a run alive in this isolate. */
  ownsLiveRun(record: TaskRecord): boolean {
    return this.active !== undefined && record.run.phase === "running" && record.run.leaseId === this.active.leaseId;
  }

  /** The lease id of the run alive here, if any. */
  activeLeaseId(): string | undefined {
    return this.active?.leaseId;
  }

  /**
   * Something the run may be about to wait for arrived (a callback's body): if the run ends by
   * yielding, it is due again at once, not at its wake-up time.
   */
  nudge(): void {
    if (this.active) this.active.nudged = true;
  }

  /** Stops the run alive here (its job sees its signal abort); the caller writes the task's new state. */
  abort(reason: Error): void {
    this.active?.controller.abort(reason);
  }

  /**
   * Starts a run if one is due (beginRun decides), runs the job for one slice and commits how it
   * ended. The job starts as soon as the run's start is written, not after what follows a commit
   * (the alarm, the observers): those go on beside it, in order (RunHooks).
   */
  async runSlice(record: TaskRecord, now: number, { onOutcome, deferJob = false }: RunHooks = {}): Promise<void> {
    const { storage, settings } = this.deps;
    const leaseId = crypto.randomUUID();
    // A job whose runs keep dying with their process gets as many tries as one that keeps throwing.
    const started = beginRun(record, leaseId, settings.leaseMs, now, settings.jobMaxAttempts);
    if (started.record === record) return;
    const begun = this.deps.commit(record, started);
    begun.catch(() => undefined); // awaited below; handled now so a failure while the job runs is not reported twice
    if (started.record.run.phase !== "running") {
      onOutcome?.(started.record); // it failed instead of starting
      return begun;
    }
    const controller = new AbortController();
    const active = { leaseId, controller, nudged: false };
    this.active = active;
    const heartbeat = setInterval(
      () => {
        const current = storage.load();
        if (current) void this.deps.commit(current, renewLease(current, leaseId, settings.leaseMs, Date.now())); // heartbeat: errors surface on the next commit
      },
      Math.max(1000, Math.floor(settings.leaseMs / 3)),
    );
    let outcome: RunOutcome;
    try {
      if (deferJob) await new Promise((resolve) => setTimeout(resolve, 0));
      outcome = await this.deps.runJob(
        record.tool,
        record.args,
        taskJobHost({
          record: started.record,
          signal: controller.signal,
          sliceDeadline: now + settings.runSliceMs,
          storage,
          limits: { maxPieces: settings.partialMaxPieces, maxBytes: settings.partialMaxBytes },
          fanOuts: this.deps.fanOuts,
          fanOutUnavailable: this.deps.fanOutUnavailable,
          commit: (before, transition) => void this.deps.commit(before, transition), // storage is synchronous; only fan-out is async
          append: (events) => this.deps.append(events),
          flush: () => this.deps.flush(),
          ...(settings.publicUrl !== undefined && {
            callbackAddress: { base: settings.publicUrl, objectId: this.deps.objectId },
          }),
        }),
      );
    } finally {
      clearInterval(heartbeat);
      if (this.active?.leaseId === leaseId) this.active = undefined;
    }
    // A callback's body that arrived while this run was on its way to waiting for it.
    if (active.nudged && outcome.kind === "yielded") outcome = { ...outcome, wakeAt: Date.now() };
    const current = storage.load();
    if (!current) return begun;
    const policy = { maxAttempts: settings.jobMaxAttempts, baseSeconds: settings.jobRetryBaseSeconds };
    const ended = endRun(current, leaseId, outcome, policy, Date.now());
    const committed = this.deps.commit(current, ended);
    onOutcome?.(ended.record);
    await begun;
    return committed;
  }
}
