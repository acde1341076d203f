/**
 * TaskObject: one Durable Object per task. It owns the task's record, event log and
 * memoized steps, runs the job from its alarm (so a long job never holds the queue
 * consumer, and a crashed run is found by its stale lease), and feeds readers over
 * hibernatable WebSockets. What runs the job and who else hears of its events are
 * given to it by the composition root (src/index.ts), which subclasses TaskObjectBase.
 */
import { DurableObject } from "cloudflare:workers";
import { readSettings, taskPolicy, type Settings } from "../config";
import type { EventStreamView } from "../streams/event-stream-frames";
import { acceptFeedReader, FeedBroadcaster } from "../streams/task-feed";
import { completeClose } from "../streams/websockets";
import { STATE_SPANS_FIELD, type AdapterStateEntry, type OpenStateEntry } from "./adapter-state";
import { isAwaitingFanOut } from "./fan-out";
import { FanOutHost, type StepClaim, type StepFailure } from "./fan-out-host";
import { sendBatches, type StepMessage } from "./fan-out-message";
import { FanOuts } from "./fan-outs";
import { principalObjectName } from "./ids";
import type { JobMessage } from "./job-message";
import {
  beginRun,
  cancelTask,
  endRun,
  failDelivery,
  isDueToRun,
  isExpired,
  markDelivered,
  newTask,
  nextAlarmAt,
  renewLease,
  type NewTaskInput,
  type Transition,
} from "./model";
import { answerStepName, type InputQuestion } from "./input";
import { answerInputs } from "./input-model";
import type { RunOutcome, TaskObjectWiring } from "./ports";
import type { LogLevel, NewTaskEvent, TaskEvent } from "./task-events";
import { echoMeta, type TaskMeta } from "./task-meta";
import { isTerminal, pendingInputs, toTaskView, type JsonObject, type Progress, type TaskOutcome, type TaskRecord, type TaskView } from "./task-record";
import { taskJobHost } from "./task-job-host";
import { TaskStorage } from "./task-storage";

export interface TaskSnapshot {
  task: TaskView;
  tool: string;
  meta: TaskMeta;
  progress?: Progress;
  outcome?: TaskOutcome;
  /** The questions the task waits on, by key, while it is `input_required`. */
  inputRequests?: Record<string, InputQuestion>;
  lastSeq: number;
}

/** `createdAt` (ms) is the gateway's, so the principal's index and the task itself agree on it. */
export type CreateTaskInput = Omit<NewTaskInput, "defaultTtlMs" | "maxTtlMs" | "pollIntervalMs" | "dispatchGraceMs"> & { createdAt?: number };
export interface CreateOptions {
  /** Send the job's queue message after answering. */
  enqueue?: boolean;
  /** Adapter state to keep with a task this call creates (written with it, in the same turn). */
  state?: readonly AdapterStateEntry[];
}
export type CancelOutcome = { ok: true; snapshot: TaskSnapshot } | { ok: false; reason: "not_found" | "terminal" };

/**
 * What became of answers to a task's questions (every path a person's answer takes ends here):
 * `accepted` keys were stored and wake the job once nothing else is pending; `ignored` keys name no
 * pending question (never asked, or already answered), as the Tasks extension asks. A task that
 * ended says so (`terminal`); an answer that breaks its form stores nothing (`invalid`, the field
 * named in `message`); an unknown, expired or another principal's task is `not_found`.
 */
export type AnswerOutcome =
  | { ok: true; accepted: string[]; ignored: string[]; snapshot: TaskSnapshot }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "terminal"; snapshot: TaskSnapshot }
  | { ok: false; reason: "invalid"; key: string; message: string; snapshot: TaskSnapshot };

/**
 * What `GET /tasks/{id}/events` shows (its documented event names). Questions and answers stay out:
 * the `status` event says the task waits and what it asks, and `GET /tasks/{id}` has the form.
 */
const EVENT_STREAM_TYPES: ReadonlySet<string> = new Set(["status", "progress", "step", "log", "result"]);

export class TaskObjectBase extends DurableObject<Env> {
  private readonly storage: TaskStorage;
  private readonly settings: Settings;
  private activeRun?: { leaseId: string; controller: AbortController };
  private view?: EventStreamView;
  private readonly feed: FeedBroadcaster;
  /** Observers still at work on committed events (see attachState). */
  private readonly observing = new Set<Promise<void>>();
  private readonly fanOuts: FanOuts;
  private readonly fanOutHost: FanOutHost;

  constructor(
    ctx: DurableObjectState,
    env: Env,
    private readonly wiring: TaskObjectWiring,
  ) {
    super(ctx, env);
    this.storage = new TaskStorage(ctx.storage.sql);
    this.settings = readSettings(env);
    this.feed = new FeedBroadcaster(ctx, () => this.eventStreamView());
    // Items get the job's retry policy; a running item's lease is a run's.
    const policy = { leaseMs: this.settings.leaseMs, maxAttempts: this.settings.jobMaxAttempts, retryBaseSeconds: this.settings.jobRetryBaseSeconds };
    this.fanOuts = new FanOuts(this.storage.fanOuts, policy);
    this.fanOutHost = new FanOutHost({
      fanOuts: this.fanOuts,
      liveRecord: () => this.liveRecord(),
      commit: (before, transition) => this.commit(before, transition),
      append: (events) => void this.append(events),
      setAlarm: (at) => this.ctx.storage.setAlarm(at),
      send: (messages) => this.sendSteps(messages),
      nextAlarmAt,
    });
  }

  // ---- RPC interface -------------------------------------------------------

  /**
   * Writes the task durably and arms its alarm; repeating it with the same id returns the
   * existing task. With `enqueue`, the job's queue message is sent after this call returns:
   * local queues take 10-20 ms per send, and the armed alarm already guarantees the task runs
   * (it starts the job after DISPATCH_GRACE_MS, at once by default), so the client need not wait.
   */
  async create(input: CreateTaskInput, options: CreateOptions = {}): Promise<TaskSnapshot> {
    const existing = this.storage.load();
    if (existing) return this.snapshot(existing);
    const { createdAt, ...task } = input;
    const transition = newTask({ ...task, ...taskPolicy(this.settings) }, createdAt ?? Date.now());
    // Before the first commit: observers of the first event already find the adapters' state.
    for (const entry of options.state ?? []) this.storage.state.attach(entry.kind, entry.value, entry.key);
    await this.commit(undefined, transition);
    if (options.enqueue) this.ctx.waitUntil(this.enqueue(transition.record));
    return this.snapshot(transition.record);
  }

  /**
   * Pre-provisioning (the principal's pool of task ids): being called makes the runtime build
   * this object, most of a fresh object's cost, ahead of its create(). It writes nothing (creating
   * the tables here measured slower: one more commit per task), so the id stays unknown to
   * tasks/get and tasks/list until create() runs; discard() clears an id that was never used.
   */
  async prepare(): Promise<void> {
    // Nothing to do: the call itself instantiated the object.
  }

  /** The pool dropped this id unused: delete its (empty) database. A task, once created, is never touched. */
  async discard(): Promise<boolean> {
    if (this.storage.load()) return false;
    await this.ctx.storage.deleteAll();
    this.storage.dropped();
    return true;
  }

  async get(): Promise<TaskSnapshot | undefined> {
    const record = this.liveRecord();
    return record && this.snapshot(record);
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
    this.activeRun?.controller.abort(new Error("The task was cancelled."));
    await this.commit(record, result.transition);
    return { ok: true, snapshot: this.snapshot(result.transition.record) };
  }

  /** Answers to the task's questions, by key (AnswerOutcome). Stored once, with the steps; the task's alarm resumes the job. */
  async answer(responses: Record<string, unknown>): Promise<AnswerOutcome> {
    const record = this.liveRecord();
    if (!record) return { ok: false, reason: "not_found" };
    const result = answerInputs(record, responses, Date.now());
    if (!result.ok) return result.reason === "terminal" ? { ok: false, reason: "terminal", snapshot: this.snapshot(record) } : { ...result, snapshot: this.snapshot(record) };
    // Answers and the transition in one synchronous turn: both are stored, or neither.
    for (const { key, answer } of result.accepted) this.storage.putStep(answerStepName(key), answer, Date.now());
    await this.commit(record, result.transition);
    return { ok: true, accepted: result.accepted.map((a) => a.key), ignored: result.ignored, snapshot: this.snapshot(result.transition.record) };
  }

  /** The dead-letter path: the queue gave up on delivering this job. */
  async failDelivery(message: string): Promise<void> {
    const record = this.liveRecord();
    if (!record) return;
    this.activeRun?.controller.abort(new Error(message));
    await this.commit(record, failDelivery(record, message, Date.now()));
  }

  /** A log line from outside the run (webhook deliveries), kept even after the task ended. False if there is no task. */
  async appendLog(level: LogLevel, message: string): Promise<boolean> {
    if (!this.liveRecord()) return false;
    this.append([{ type: "log", data: { level, message: message.slice(0, 2000) } }]);
    return true;
  }

  async events(afterSeq: number, limit = 1000): Promise<TaskEvent[]> {
    return this.liveRecord() ? this.storage.eventsAfter(afterSeq, limit) : [];
  }

  // ---- fan-out: the step consumer's calls (fan-out-host.ts) -----------------

  /** A consumer got these items' messages: which may it run (with their inputs), which are done or unwanted. */
  async claimSteps(fanOut: string, indexes: number[]): Promise<StepClaim> {
    return this.fanOutHost.claim(fanOut, indexes);
  }

  /** An item's result as JSON text; stored once, a duplicate or late one is ignored. */
  async stepDone(fanOut: string, index: number, value: string): Promise<"stored" | "ignored" | "gone"> {
    return this.fanOutHost.done(fanOut, index, value);
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
   * still at work on earlier events finish first, so what they note about those events (a delivery)
   * is in the state before the new entry is, and its adapter reads both in order.
   */
  async attachState(kind: string, value: JsonObject, key?: string): Promise<string | undefined> {
    if (this.observing.size > 0) await Promise.all(this.observing);
    return this.liveRecord() ? this.storage.state.attach(kind, value, key) : undefined;
  }

  /** attachState under the next free key, answering the entry with its open span (from the latest event on). */
  async openState(kind: string, value: JsonObject): Promise<OpenStateEntry | undefined> {
    const key = await this.attachState(kind, value);
    return key === undefined ? undefined : this.storage.state.entry(kind, key);
  }

  /** Ends the entry's open span at the latest event (a response stream closed). */
  async closeState(kind: string, key: string): Promise<void> {
    if (this.liveRecord()) this.storage.state.close(kind, key);
  }

  /** Opens the entry again from the latest event (a closed response stream resumed); the entry with its spans. */
  async reopenState(kind: string, key: string): Promise<OpenStateEntry | undefined> {
    if (this.observing.size > 0) await Promise.all(this.observing);
    return this.liveRecord() ? this.storage.state.reopen(kind, key) : undefined;
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

  // ---- feed: hibernatable WebSocket readers ---------------------------------

  override async fetch(request: Request): Promise<Response> {
    this.feed.flush();
    const record = this.liveRecord();
    const { storage } = this;
    return acceptFeedReader(
      this.ctx,
      request,
      record && {
        view: this.eventStreamView(),
        meta: record.meta,
        ended: isTerminal(record.status),
        lastSeq: () => storage.lastSeq(),
        eventsAfter: (seq, limit) => storage.eventsAfter(seq, limit),
        lookupState: (kind, key) => {
          const entry = storage.state.entry(kind, key);
          return entry && { ...entry.value, [STATE_SPANS_FIELD]: entry.spans };
        },
      },
    );
  }

  override async webSocketMessage(): Promise<void> {
    // Readers only listen; anything they send is ignored.
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    completeClose(ws, code);
  }

  // ---- alarm: expiry, dispatch fallback, wake-ups, lease recovery -----------

  override async alarm(): Promise<void> {
    const record = this.storage.load();
    if (!record) return;
    const now = Date.now();
    if (isExpired(record, now)) return this.expire(record);
    if (this.activeRun && record.run.phase === "running" && record.run.leaseId === this.activeRun.leaseId) {
      // Our own run is alive in this isolate: keep its lease.
      return this.commit(record, renewLease(record, this.activeRun.leaseId, this.settings.leaseMs, now));
    }
    if (isAwaitingFanOut(record)) {
      const woken = await this.fanOutHost.onAlarm(record, now);
      // Woken at the moment the last result was stored, which may be after `now`.
      if (woken) await this.runSlice(woken, Date.now());
      return;
    }
    if (!isDueToRun(record, now)) {
      await this.ctx.storage.setAlarm(nextAlarmAt(record));
      return;
    }
    await this.runSlice(record, now);
  }

  private async runSlice(record: TaskRecord, now: number): Promise<void> {
    const leaseId = crypto.randomUUID();
    // A job whose runs keep dying with their process gets as many tries as one that keeps throwing.
    const started = beginRun(record, leaseId, this.settings.leaseMs, now, this.settings.jobMaxAttempts);
    if (started.record === record) return;
    await this.commit(record, started);
    if (started.record.run.phase !== "running") return; // it failed instead of starting
    const controller = new AbortController();
    this.activeRun = { leaseId, controller };
    const heartbeat = setInterval(() => {
      const current = this.storage.load();
      if (current) void this.commit(current, renewLease(current, leaseId, this.settings.leaseMs, Date.now())); // heartbeat: errors surface on the next commit
    }, Math.max(1000, Math.floor(this.settings.leaseMs / 3)));
    let outcome: RunOutcome;
    try {
      outcome = await this.wiring.runJob(
        record.tool,
        record.args,
        taskJobHost({
          record: started.record,
          signal: controller.signal,
          sliceDeadline: now + this.settings.runSliceMs,
          storage: this.storage,
          fanOuts: this.fanOuts,
          commit: (before, transition) => void this.commit(before, transition), // storage is synchronous; only fan-out is async
          append: (events) => void this.append(events),
          flush: () => this.feed.flush(),
        }),
      );
    } finally {
      clearInterval(heartbeat);
      if (this.activeRun?.leaseId === leaseId) this.activeRun = undefined;
    }
    const current = this.storage.load();
    if (!current) return;
    const policy = { maxAttempts: this.settings.jobMaxAttempts, baseSeconds: this.settings.jobRetryBaseSeconds };
    return this.commit(current, endRun(current, leaseId, outcome, policy, Date.now()));
  }

  // ---- persistence and fan-out -----------------------------------------------

  /** The record, unless it has expired (then it is deleted now rather than at the alarm). */
  private liveRecord(): TaskRecord | undefined {
    const record = this.storage.load();
    if (!record) return undefined;
    if (isExpired(record, Date.now())) {
      void this.expire(record); // lookups after the ttl must already see nothing
      return undefined;
    }
    return record;
  }

  private snapshot(record: TaskRecord): TaskSnapshot {
    return {
      task: toTaskView(record),
      tool: record.tool,
      meta: record.meta,
      ...(record.progress && { progress: record.progress }),
      ...(record.outcome && { outcome: record.outcome }),
      ...(record.status === "input_required" && { inputRequests: pendingInputs(record) }),
      lastSeq: this.storage.lastSeq(),
    };
  }

  /** Persist a transition from `before` (undefined for a new task); an unchanged record is a no-op. */
  private async commit(before: TaskRecord | undefined, { record, events }: Transition): Promise<void> {
    if (before === record) return;
    this.storage.save(record);
    const appended = this.append(events);
    if (!before || before.run.phase !== record.run.phase || before.run.leaseUntil !== record.run.leaseUntil || before.status !== record.status) {
      await this.ctx.storage.setAlarm(nextAlarmAt(record));
    }
    // The index follows the status, not the message: a new task is already in it (the gateway
    // admitted it), and a status event that keeps the status (the run's "Running.", a wait, a retry)
    // changes nothing the index keeps, so neither costs a round trip to the principal's object.
    if (before && before.status !== record.status) await this.updateIndex(record);
    await this.notifyObservers(record, appended);
  }

  private async notifyObservers(record: TaskRecord, events: TaskEvent[]): Promise<void> {
    const { observers } = this.wiring;
    if (events.length === 0 || observers.length === 0) return;
    const state = this.storage.state;
    const done = Promise.all(
      observers.map((observe) => observe({ env: this.env, record, events, state }).catch((error: unknown) => console.error("task observer failed", record.taskId, error))),
    ).then(() => undefined);
    this.observing.add(done);
    try {
      await done;
    } finally {
      this.observing.delete(done);
    }
  }

  private append(events: NewTaskEvent[]): TaskEvent[] {
    if (events.length === 0) return [];
    const appended = this.storage.append(events, Date.now());
    this.feed.push(appended);
    return appended;
  }

  /** What the event-stream view frames with: fixed at creation, so read once per instance. */
  private eventStreamView(): EventStreamView {
    if (!this.view) {
      const record = this.storage.load();
      const statusMeta = record && echoMeta(record.meta);
      this.view = { taskId: record?.taskId ?? "", ...(statusMeta && { statusMeta }), shown: EVENT_STREAM_TYPES };
    }
    return this.view;
  }

  private async enqueue(record: TaskRecord): Promise<void> {
    const message: JobMessage = { v: 1, principal: record.principal, taskId: record.taskId };
    try {
      await this.env.JOBS.send(message, { contentType: "json" });
    } catch (error) {
      console.error("enqueue failed; the task's alarm starts it", record.taskId, error);
    }
  }

  /** Items' messages to the step queue, in sendBatch calls within the queue's limits. */
  private async sendSteps(messages: StepMessage[]): Promise<void> {
    for (const chunk of sendBatches(messages)) {
      await this.env.STEPS.sendBatch(chunk.map((body): MessageSendRequest<StepMessage> => ({ body, contentType: "json" })));
    }
  }

  private async updateIndex(record: TaskRecord): Promise<void> {
    try {
      await this.env.PRINCIPALS.getByName(principalObjectName(record.principal)).update(toTaskView(record));
    } catch (error) {
      console.error("task index update failed", record.taskId, error);
    }
  }

  private async expire(record: TaskRecord): Promise<void> {
    this.activeRun?.controller.abort(new Error("The task expired."));
    this.feed.close("expired");
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.storage.ensureSchema();
    try {
      await this.env.PRINCIPALS.getByName(principalObjectName(record.principal)).remove(record.taskId);
    } catch (error) {
      console.error("task index removal failed", record.taskId, error);
    }
  }
}
