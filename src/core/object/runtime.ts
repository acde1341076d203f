/**
 * The part of a TaskObject the runtime calls on its own: the alarm (expiry, dispatch fallback,
 * wake-ups, lease recovery) and the readers' requests and socket events; and the parts the RPC
 * methods of TaskObjectBase (task-object.ts) share: storage, commits, runs, observers, the feed,
 * fan-outs and the messages the task sends out, each a module of its own.
 */
import { DurableObject } from "cloudflare:workers";
import { readSettings, type Settings } from "../../config";
import type { EventStreamView } from "../../streams/event-stream-frames";
import { acceptFeedReader, FeedBroadcaster } from "../../streams/task-feed";
import { completeClose } from "../../streams/websockets";
import { isAwaitingFanOut } from "../fan-out/record-wait";
import { FanOutHost } from "../fan-out/host";
import { FanOuts } from "../fan-out/ledger";
import { isDueToRun, isExpired, nextAlarmAt, renewLease, type Transition } from "../model/machine";
import type { TaskObjectWiring } from "../ports";
import type { NewTaskEvent } from "../model/events";
import { endInheritedLease } from "../model/inherited-lease";
import { noteReceipt } from "../model/question-receipt";
import type { TaskRecord } from "../model/record";
import type { PartialLimits } from "../model/partial";
import { foldAttempts, type StepAttemptsView } from "../model/step-attempts";
import { TaskCommits } from "./commits";
import { TaskObservers } from "./observers";
import { TaskOutbox } from "./outbox";
import { eventStreamView, feedSubject } from "./readers";
import { taskSnapshot, type TaskSnapshot } from "../client/task-rpc";
import { TaskRuns } from "./runs";
import { journalView } from "./job-journal";
import { TaskStorage } from "./storage";

/** The journal rows a task's document is folded from: its latest activity, bounded. */
const MAX_JOURNAL_ROWS_SHOWN = 400;

// E is the Worker's env as the class above declares it: the core reads only its settings from it (by
// name) and hands it on to the observers and onExpired above it (ports.ts), which reach their own bindings.
export abstract class TaskObjectRuntime<E extends object = object> extends DurableObject<E> {
  protected readonly storage: TaskStorage;
  protected readonly settings: Settings;
  private view?: EventStreamView;
  protected readonly feed: FeedBroadcaster;
  protected readonly observers: TaskObservers<E>;
  protected readonly outbox: TaskOutbox;
  protected readonly commits: TaskCommits;
  protected readonly runs: TaskRuns;
  protected readonly fanOuts: FanOuts;
  protected readonly fanOutHost: FanOutHost;
  private readonly onExpired: TaskObjectWiring<E>["onExpired"];

  /**
   * The modules `object` delegates to, for code running inside it (tests, via runInDurableObject).
   * Static, so it is no RPC method: nothing outside the isolate can call it.
   */
  static partsOf<E extends object>(
    object: TaskObjectRuntime<E>,
  ): { storage: TaskStorage; runs: TaskRuns; fanOuts: FanOuts } {
    return { storage: object.storage, runs: object.runs, fanOuts: object.fanOuts };
  }

  constructor(ctx: DurableObjectState, env: E, wiring: TaskObjectWiring<E>) {
    super(ctx, env);
    this.storage = new TaskStorage(ctx.storage.sql, (fn) => ctx.storage.transactionSync(fn));
    this.settings = readSettings(env);
    this.feed = new FeedBroadcaster(ctx, () => this.eventStreamView());
    this.observers = new TaskObservers(wiring.observers, env, () => this.noteReceipt());
    this.onExpired = wiring.onExpired;
    this.outbox = new TaskOutbox(wiring.queues.steps, wiring.principalIndexes);
    this.commits = new TaskCommits({
      storage: this.storage,
      setAlarm: (at) => this.ctx.storage.setAlarm(at),
      feed: this.feed,
      observers: this.observers,
      outbox: this.outbox,
      noteReceipt: () => this.noteReceipt(),
    });
    const commit = (before: TaskRecord, transition: Transition) => this.commits.commit(before, transition);
    const append = (events: NewTaskEvent[]) => void this.commits.append(events);
    // Items get the job's retry policy; a running item's lease is a run's.
    const policy = {
      leaseMs: this.settings.leaseMs,
      maxAttempts: this.settings.jobMaxAttempts,
      retryBaseSeconds: this.settings.jobRetryBaseSeconds,
    };
    const fanOuts = (this.fanOuts = new FanOuts(this.storage.fanOuts, policy));
    this.runs = new TaskRuns({
      storage: this.storage,
      fanOuts,
      fanOutUnavailable: wiring.queues.steps.unavailable,
      settings: this.settings,
      runJob: wiring.runJob,
      commit,
      append,
      flush: () => this.feed.flush(),
      objectId: ctx.id.toString(),
    });
    this.fanOutHost = new FanOutHost({
      fanOuts,
      liveRecord: () => this.liveRecord(),
      commit,
      append,
      setAlarm: (at) => this.ctx.storage.setAlarm(at),
      send: (messages) => this.outbox.sendSteps(messages),
      nextAlarmAt,
    });
    // This instance has just started and holds no run: a lease in the record is an earlier instance's,
    // now dead (inherited-lease.ts). Before any event is served; a failure resets the object, and the
    // next instance tries again.
    const inherited = this.storage.load();
    if (inherited?.run.phase === "running") void ctx.blockConcurrencyWhile(() => this.resumeInherited(inherited));
  }

  /** Ends the lease an earlier instance held (inherited-lease.ts): the commit moves the alarm to now, and the alarm resumes the job. */
  private async resumeInherited(record: TaskRecord): Promise<void> {
    await this.commits.commit(record, endInheritedLease(record, Date.now()));
  }

  // ---- feed: hibernatable WebSocket readers (readers.ts) ---------------

  override async fetch(request: Request): Promise<Response> {
    this.feed.flush();
    // A reader attaching while the task waits is shown its question (replayed, or in the status it reads).
    this.noteReceipt();
    return acceptFeedReader(this.ctx, request, feedSubject(this.storage, this.liveRecord(), this.eventStreamView()));
  }

  override async webSocketMessage(): Promise<void> {
    // Readers only listen; anything they send is ignored.
  }

  override async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    completeClose(ws, code);
  }

  // ---- alarm: expiry, dispatch fallback, wake-ups, lease recovery -----------

  override async alarm(): Promise<void> {
    this.settle();
    const record = this.storage.load();
    if (!record) return;
    const now = Date.now();
    if (isExpired(record, now)) return this.expire(record);
    const leaseId = this.runs.activeLeaseId();
    if (leaseId !== undefined && this.runs.ownsLiveRun(record)) {
      // Our own run is alive in this isolate: keep its lease.
      return this.commits.commit(record, renewLease(record, leaseId, this.settings.leaseMs, now));
    }
    if (isAwaitingFanOut(record)) {
      const woken = await this.fanOutHost.onAlarm(record, now);
      // Woken at the moment the last result was stored, which may be after `now`.
      if (woken) await this.runs.runSlice(woken, Date.now());
      return;
    }
    if (!isDueToRun(record, now)) {
      await this.ctx.storage.setAlarm(nextAlarmAt(record));
      return;
    }
    await this.runs.runSlice(record, now);
  }

  // ---- persistence -----------------------------------------------------------

  /** The record, unless it has expired (then it is deleted now rather than at the alarm). */
  /** A task whose writes were held for its call's first moments (launch.ts) is written before anyone else reads it. */
  protected settle(): void {
    if (this.commits.deferred) this.ctx.waitUntil(this.commits.persist());
  }

  protected liveRecord(): TaskRecord | undefined {
    this.settle();
    const record = this.storage.load();
    if (!record) return undefined;
    if (isExpired(record, Date.now())) {
      void this.expire(record); // lookups after the ttl must already see nothing
      return undefined;
    }
    return record;
  }

  /**
   * The task's pending questions reached a reader of its principal now: the first receipt of each is
   * written once (question-receipt.ts); later reads find it there and write nothing.
   */
  protected noteReceipt(): void {
    const record = this.liveRecord();
    if (!record) return;
    const noted = noteReceipt(record, Date.now());
    if (noted !== record) this.storage.save(noted);
  }

  /** How much partial output a task may hold (settings PARTIAL_MAX_PIECES, PARTIAL_MAX_BYTES). */
  protected partialLimits(): PartialLimits {
    return { maxPieces: this.settings.partialMaxPieces, maxBytes: this.settings.partialMaxBytes };
  }

  protected snapshot(record: TaskRecord): TaskSnapshot {
    return taskSnapshot(record, this.storage.lastSeq(), Date.now(), this.stepAttempts(), journalView(this.storage));
  }

  /** The steps given options and their attempts, from the journal's latest rows (none: no read, the table is absent). */
  private stepAttempts(): StepAttemptsView[] {
    return foldAttempts(this.storage.memos.latest("attempts", MAX_JOURNAL_ROWS_SHOWN));
  }

  /** What the event-stream view frames with: fixed at creation, so read once per instance. */
  private eventStreamView(): EventStreamView {
    this.view ??= eventStreamView(this.storage.load());
    return this.view;
  }

  private async expire(record: TaskRecord): Promise<void> {
    this.runs.abort(new Error("The task expired."));
    this.feed.close("expired");
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
    this.storage.dropped();
    this.storage.ensureSchema();
    await this.outbox.removeFromIndex(record);
    if (this.onExpired) await this.onExpired(this.env, record);
  }
}
