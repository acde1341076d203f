/**
 * How a TaskObject persists a transition of the state machine: the record and its events in one
 * synchronous turn, then what follows from them: the alarm re-armed when the run's schedule moved,
 * the principal's index told of a status change, the readers sent the events, the observers told.
 */
import type { FeedBroadcaster } from "../../streams/task-feed";
import { nextAlarmAt, type Transition } from "../model/machine";
import type { NewTaskEvent, TaskEvent } from "../model/events";
import type { TaskObservers } from "./observers";
import type { TaskOutbox } from "./outbox";
import type { TaskRecord } from "../model/record";
import type { TaskStorage } from "./storage";

export interface TaskCommitsDeps {
  storage: TaskStorage;
  setAlarm(at: number): Promise<void>;
  feed: FeedBroadcaster;
  observers: Pick<TaskObservers<object>, "notify" | "settled">;
  outbox: TaskOutbox;
  /** A question just reached a reader (question-receipt.ts): note its first receipt. */
  noteReceipt(): void;
}

interface Committed {
  before: TaskRecord | undefined;
  record: TaskRecord;
  appended: TaskEvent[];
}

export class TaskCommits {
  /** While a new task's writes are deferred (TaskStorage.defer): its commits, for what follows them at persist(). */
  private held: Committed[] | undefined;

  constructor(private readonly deps: TaskCommitsDeps) {}

  /** Keeps this new task's commits in memory until persist(): no write, alarm, index call or observer until then. */
  defer(): void {
    this.deps.storage.defer();
    this.held ??= [];
  }

  get deferred(): boolean {
    return this.held !== undefined;
  }

  /**
   * Tells the principal's index of a deferred task now, as it is: a plain call that ended in its
   * first moments answers at once and its task is written just after, and a `tasks/list` sent right
   * after the answer must already list it. The index keeps it in memory until persist() reports the
   * written task (principals/announced-tasks.ts), so no write waits here. Not awaited by the answer.
   */
  announce(): Promise<void> {
    const last = this.held?.at(-1);
    return last ? this.deps.outbox.announceToIndex(last.record) : Promise.resolve();
  }

  /**
   * Writes the deferred commits in this synchronous turn, then does what they left to follow: the
   * alarm (once, for the last record), the index (if the status moved), the observers (commit by
   * commit, in order). Resolves when those are done; a no-op when nothing was deferred.
   */
  persist(): Promise<void> {
    const held = this.held;
    if (!held) return Promise.resolve();
    this.held = undefined;
    this.deps.storage.persist();
    return this.followUps(held);
  }

  private async followUps(held: Committed[]): Promise<void> {
    const first = held[0];
    const last = held.at(-1);
    if (!first || !last) return;
    await this.deps.setAlarm(nextAlarmAt(last.record));
    // The index holds the status the task had before these commits (a new task: its first one), or,
    // for a task created under an admission slot, nothing yet.
    const { outbox } = this.deps;
    if (outbox.tracking || (first.before ?? first.record).status !== last.record.status)
      await outbox.updateIndex(last.record);
    for (const { before, record, appended } of held)
      await this.deps.observers.notify(record, appended, this.deps.storage.state, before?.status);
  }

  /** Persist a transition from `before` (undefined for a new task); an unchanged record is a no-op. */
  async commit(before: TaskRecord | undefined, { record, events }: Transition): Promise<void> {
    if (before === record) return;
    const { storage, observers, outbox } = this.deps;
    storage.save(record);
    const appended = this.append(events);
    if (this.held) {
      this.held.push({ before, record, appended });
      return;
    }
    if (
      !before ||
      before.run.phase !== record.run.phase ||
      before.run.leaseUntil !== record.run.leaseUntil ||
      before.status !== record.status
    ) {
      await this.deps.setAlarm(nextAlarmAt(record));
    }
    // The index follows the status, not the message: a new task is already in it (the gateway
    // admitted it), and a status event that keeps the status (the run's "Running.", a wait, a retry)
    // changes nothing the index keeps, so neither costs a round trip to the principal's object.
    if (before && before.status !== record.status) await outbox.updateIndex(record);
    await observers.notify(record, appended, storage.state, before?.status);
  }

  /** Appends events to the log and hands them to the readers; the record is unchanged (a log line) or saved by commit. */
  append(events: NewTaskEvent[]): TaskEvent[] {
    if (events.length === 0) return [];
    const appended = this.deps.storage.append(events, Date.now());
    this.deps.feed.push(appended);
    // A reader attached now (a call's own stream, a tasks/result, a listen) gets the question at once.
    if (appended.some((event) => event.type === "question") && this.deps.feed.hasReaders()) this.deps.noteReceipt();
    return appended;
  }
}
