/**
 * TaskObject: one Durable Object per task. It owns the task's record, event log and
 * memoized steps, runs the job from its alarm (so a long job never holds the queue
 * consumer, and a crashed run is found by its stale lease), and feeds readers over
 * hibernatable WebSockets. What runs the job and who else hears of its events are
 * given to it by the composition root (src/index.ts), which subclasses TaskObjectBase.
 * This file is its RPC interface (public methods are what callers reach through a stub); what the
 * runtime calls on its own, and the parts both share, are in runtime.ts.
 */
import { taskPolicy } from "../../config";
import type { OpenStateEntry } from "./adapter-state";
import { applyReport, type ReportReply } from "./engine-reports";
import { deliverCallback } from "./callbacks";
import type { CallbackOutcome, CallbackProof } from "../model/callbacks";
import type { StepClaim, StepFailure } from "../fan-out/host";
import { cancelTask, failDelivery, markDelivered, newTask } from "../model/machine";
import type { LogLevel, TaskEvent } from "../model/events";
import { clipMiddle } from "../model/clip";
import type { JsonObject } from "../../json";
import { answerTask } from "./answers";
import { TaskObjectRuntime } from "./runtime";
import type { Transition } from "../model/machine";
import type { TaskRecord } from "../model/record";
import { launchRun } from "./launch";
import type {
  AnswerOutcome,
  CancelOutcome,
  CreatedTask,
  CreateOptions,
  CreateTaskInput,
  TaskSnapshot,
} from "../client/task-rpc";
import type { GetOptions } from "../client/task-rpc";
import { publishItemPieces, readPieces } from "./partial-pieces";

/** The longest log line a task keeps from outside its run. */
export const MAX_LOG_LINE = 2000;

export class TaskObjectBase<E extends object = object> extends TaskObjectRuntime<E> {
  // ---- RPC interface -------------------------------------------------------

  /**
   * Writes the task durably and arms its alarm; repeating it with the same id returns the
   * existing task with `created: false` (the first create wins: CreatedTask.created). With `run`, the job starts in this call and the answer may already hold its
   * end (launch.ts). The job's queue message is the gateway's to send (client/job-dispatch.ts): the
   * armed alarm, or the run already started, guarantees the task runs, so no one waits for the queue.
   */
  async create(input: CreateTaskInput, options: CreateOptions = {}): Promise<CreatedTask> {
    this.settle();
    const existing = this.storage.load();
    if (existing) return { ...this.snapshot(existing), created: false };
    const { createdAt, ...task } = input;
    const { run } = options;
    // A job this call starts has its alarm as the fallback only: at the lease's length, in case this object dies first.
    const policy = { ...taskPolicy(this.settings), ...(run && { dispatchGraceMs: this.settings.leaseMs }) };
    const transition = newTask({ ...task, ...policy }, createdAt ?? Date.now());
    // A plain call's first moments: nothing is written unless the job outlives them (launch.ts).
    if (run && run.waitMs > 0) this.commits.defer();
    // Before the first commit: observers of the first event already find the adapters' state.
    this.storage.attachInitialState(options.state ?? []);
    if (options.slotted) this.outbox.expectTracking();
    const written = this.commits.commit(undefined, transition);
    // Listed before anyone holds its id: tasks/list right after the answer shows it. A deferred task is reported when written.
    const created =
      this.commits.deferred || !options.slotted
        ? written
        : Promise.all([written, this.outbox.updateIndex(transition.record)]).then(() => undefined);
    const snapshot = { ...this.snapshot(transition.record), created: true };
    if (!run) {
      await created;
      return snapshot;
    }
    const ended = await launchRun(created, run.waitMs, {
      runs: this.runs,
      load: () => this.storage.load(),
      commits: this.commits,
      waitUntil: (promise) => this.ctx.waitUntil(promise),
    });
    return {
      ...snapshot,
      ...(ended && { ended: { snapshot: this.snapshot(ended), events: this.storage.wireEventsAfter(0) } }),
    };
  }

  /**
   * Pre-provisioning (the principal's pool of task ids): being called makes the runtime build
   * this object, most of a fresh object's cost, ahead of its create(), and its empty tables: the
   * database file is made here, off the creation's path (on a local disk, several fsyncs: see
   * docs/peers.md, "Disk: where the fsyncs are"). No task is stored, so the id stays unknown to tasks/get and
   * tasks/list until create() runs; discard() deletes the database of an id that was never used.
   */
  async prepare(): Promise<void> {
    this.storage.prepareTables();
  }

  /** The pool dropped this id unused: delete its (empty) database. A task, once created, is never touched. */
  async discard(): Promise<boolean> {
    this.settle();
    if (this.storage.load()) return false;
    await this.ctx.storage.deleteAll();
    this.storage.dropped();
    return true;
  }

  /** The task; with `piecesAfter`, also its partial pieces numbered after that one (partial-pieces.ts). */
  async get(options: GetOptions = {}): Promise<TaskSnapshot | undefined> {
    // Every read shows the reader the task's pending questions: the first is their receipt (question-receipt.ts).
    this.noteReceipt();
    const record = this.liveRecord();
    if (!record) return undefined;
    const snapshot = this.snapshot(record);
    const after = options.piecesAfter;
    if (after === undefined || !Number.isSafeInteger(after) || after < 0) return snapshot;
    const pieces = record.partial && record.partial.pieces > after ? readPieces(this.storage, after) : [];
    return { ...snapshot, piecesAfter: after, pieces };
  }

  /** The queue delivered the job. Returns what happened, so duplicates are visible in tests and logs. */
  async deliver(): Promise<"started" | "duplicate" | "gone"> {
    const record = this.liveRecord();
    if (!record) return "gone";
    const transition = markDelivered(record);
    if (transition.record === record) return "duplicate";
    this.storage.save(transition.record);
    // The run happens in the alarm, not in this call: the consumer's batch ends at once.
    await this.ctx.storage.setAlarm(Date.now());
    return "started";
  }

  async cancel(message = "The task was cancelled by request."): Promise<CancelOutcome> {
    const record = this.liveRecord();
    if (!record) return { ok: false, reason: "not_found" };
    const result = cancelTask(record, message, Date.now());
    if (!result.ok) return result;
    this.runs.abort(new Error("The task was cancelled."));
    await this.commits.commit(record, result.transition);
    return { ok: true, snapshot: this.snapshot(result.transition.record) };
  }

  /** Answers to the task's questions, by key (AnswerOutcome). Stored once, with the steps; the task's alarm resumes the job. */
  async answer(responses: Record<string, unknown>): Promise<AnswerOutcome> {
    return answerTask(this.liveRecord(), responses, {
      storage: this.storage,
      commit: (before, transition) => this.commits.commit(before, transition),
      snapshot: (record) => this.snapshot(record),
      now: Date.now,
      floorMs: this.settings.personFloorMs,
    });
  }

  /** An engine running this task's job elsewhere (a Workflow) reports what it did (engine-reports.ts). */
  async report(report: unknown): Promise<ReportReply> {
    return applyReport(this.liveRecord(), report, {
      storage: this.storage,
      limits: this.partialLimits(),
      commit: (before, transition) => this.commits.commit(before, transition),
      append: (events) => void this.commits.append(events),
      wakeNow: () => this.ctx.storage.setAlarm(Date.now()),
    });
  }

  /**
   * A POST to one of the task's callbacks (http/callback-route.ts), its body already checked JSON:
   * stored once and the job woken, or refused without a change (unknown or forged, used, expired).
   */
  async callback(name: string, token: string, body: unknown, signed = false): Promise<CallbackOutcome> {
    return this.deliverCallback(name, { token, signed }, body);
  }

  /** The same from the task's owner, authenticated (this object is reached through their principal): no token needed. */
  async completeCallback(name: string, body: unknown): Promise<CallbackOutcome> {
    return this.deliverCallback(name, { owner: true }, body);
  }

  private deliverCallback(name: string, proof: CallbackProof, body: unknown): Promise<CallbackOutcome> {
    return deliverCallback(this.liveRecord(), name, proof, body, {
      storage: this.storage,
      commit: (before, transition) => this.commits.commit(before, transition),
      runNow: () => this.runWoken(),
      nudgeRun: () => this.runs.nudge(),
    });
  }

  /** Runs a job just woken (a callback's body arrived) in this request; if no run starts here, the alarm runs it now. */
  private async runWoken(): Promise<void> {
    const current = this.storage.load();
    if (!current) return;
    // runSlice writes the run's start (and its lease's alarm) before its first await; its job runs after this answer.
    const run = this.runs.runSlice(current, Date.now(), { deferJob: true });
    run.catch((error: unknown) =>
      console.error("a woken run failed to commit; its alarm retries", current.taskId, error),
    );
    if (this.runs.activeLeaseId() === undefined) await this.ctx.storage.setAlarm(Date.now());
  }

  /** The dead-letter path: the queue gave up on delivering this job. */
  async failDelivery(message: string): Promise<void> {
    const record = this.liveRecord();
    if (!record) return;
    this.runs.abort(new Error(message));
    await this.commits.commit(record, failDelivery(record, message, Date.now()));
  }

  /**
   * A log line from outside the run (webhook deliveries), kept even after the task ended, cut by its
   * middle to MAX_LOG_LINE so its cause survives. False if there is no task.
   */
  async appendLog(level: LogLevel, message: string): Promise<boolean> {
    if (!this.liveRecord()) return false;
    this.commits.append([{ type: "log", data: { level, message: clipMiddle(message, MAX_LOG_LINE) } }]);
    return true;
  }

  async events(afterSeq: number, limit = 1000): Promise<TaskEvent[]> {
    return this.liveRecord() ? this.storage.eventsAfter(afterSeq, limit) : [];
  }

  // ---- fan-out: the step consumer's calls (fan-out/host.ts) -----------------

  /** A consumer got these items' messages: which may it run (with their inputs), which are done or unwanted. */
  async claimSteps(fanOut: string, indexes: number[]): Promise<StepClaim> {
    return this.fanOutHost.claim(fanOut, indexes);
  }

  /**
   * An item's result as JSON text; stored once, a duplicate or late one is ignored. `pieces`: what
   * the item published (StepContext.publish), each call's blocks a group (0.1's consumers sent one
   * flat list), recorded only with a result that is taken, in the same turn, each group once.
   */
  async stepDone(
    fanOut: string,
    index: number,
    value: string,
    pieces?: unknown,
  ): Promise<"stored" | "ignored" | "gone"> {
    return this.fanOutHost.done(fanOut, index, value, () => {
      // Before the result is applied: the last item's result may end the task, which takes no pieces after that.
      if (pieces === undefined || !this.liveRecord()) return;
      const commit = (before: TaskRecord, transition: Transition) => this.commits.commit(before, transition);
      const deps = { storage: this.storage, limits: this.partialLimits(), commit };
      const refused = publishItemPieces(deps, fanOut, index, pieces);
      if (refused !== undefined)
        this.commits.append([{ type: "log", data: { level: "warning", message: `${fanOut}[${index}]: ${refused}` } }]);
    });
  }

  /** An item's step threw: retry it after a delay, or it failed for good. */
  async stepFailed(fanOut: string, index: number, message: string, permanent: boolean): Promise<StepFailure> {
    return this.fanOutHost.failed(fanOut, index, message, permanent);
  }

  /** The dead-letter queue: the queue gave up on an item's message. */
  async stepUndeliverable(fanOut: string, index: number, message: string): Promise<void> {
    return this.fanOutHost.giveUp(fanOut, index, message);
  }

  /** A consumer still runs these items: extends their leases and says which to stop (the task was cancelled, say). */
  async stepHeartbeat(fanOut: string, indexes: number[]): Promise<number[]> {
    return this.fanOutHost.heartbeat(fanOut, indexes);
  }

  // ---- adapter state: entries only their adapter reads (adapter-state.ts) ----

  /**
   * Keeps `value` under (kind, key) with the task; without a key, the next free number. Undefined
   * for an unknown task. A new entry is open from the latest event on (adapter-state.ts). Observers
   * still at work on earlier events finish first (observers.ts).
   */
  async attachState(kind: string, value: JsonObject, key?: string): Promise<string | undefined> {
    await this.observers.settled();
    return this.liveRecord() ? this.storage.state.attach(kind, value, key) : undefined;
  }

  /** attachState under the next free key, answering the entry with its open span (from the latest event on). */
  async openState(kind: string, value: JsonObject): Promise<OpenStateEntry | undefined> {
    const key = await this.attachState(kind, value);
    return key === undefined ? undefined : this.storage.state.entry(kind, key);
  }

  /** Ends the entry's open span at the latest event (a response stream closed); returns that event's seq (adapter-state.ts). */
  async closeState(kind: string, key: string, ifSpans?: number): Promise<number | undefined> {
    return this.liveRecord() ? this.storage.state.close(kind, key, ifSpans) : undefined;
  }

  /** Splits the entry's open span (a resumed response stream takes it over): see AdapterStateStore.renew. */
  async renewState(kind: string, key: string): Promise<void> {
    if (this.liveRecord()) this.storage.state.renew(kind, key);
  }

  async lookupState(kind: string, key: string): Promise<JsonObject | undefined> {
    return this.liveRecord() ? this.storage.state.lookup(kind, key) : undefined;
  }

  async detachState(kind: string, key: string): Promise<void> {
    if (this.liveRecord()) this.storage.state.detach(kind, key);
  }

  async storageBytes(): Promise<number> {
    return this.storage.databaseSize();
  }
}
