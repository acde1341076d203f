/**
 * How a TaskObject persists a transition of the state machine: the record and its events in one
 * synchronous turn, then what follows from them: the alarm re-armed when the run's schedule moved,
 * the principal's index told of a status change, the readers sent the events, the observers told.
 */
import type { FeedBroadcaster } from "../streams/task-feed";
import { nextAlarmAt, type Transition } from "./model";
import type { NewTaskEvent, TaskEvent } from "./task-events";
import type { TaskObservers } from "./task-observers";
import type { TaskOutbox } from "./task-outbox";
import type { TaskRecord } from "./task-record";
import type { TaskStorage } from "./task-storage";

export interface TaskCommitsDeps {
  storage: TaskStorage;
  setAlarm(at: number): Promise<void>;
  feed: FeedBroadcaster;
  observers: TaskObservers;
  outbox: TaskOutbox;
}

export class TaskCommits {
  constructor(private readonly deps: TaskCommitsDeps) {}

  /** Persist a transition from `before` (undefined for a new task); an unchanged record is a no-op. */
  async commit(before: TaskRecord | undefined, { record, events }: Transition): Promise<void> {
    if (before === record) return;
    const { storage, observers, outbox } = this.deps;
    storage.save(record);
    const appended = this.append(events);
    if (!before || before.run.phase !== record.run.phase || before.run.leaseUntil !== record.run.leaseUntil || before.status !== record.status) {
      await this.deps.setAlarm(nextAlarmAt(record));
    }
    // The index follows the status, not the message: a new task is already in it (the gateway
    // admitted it), and a status event that keeps the status (the run's "Running.", a wait, a retry)
    // changes nothing the index keeps, so neither costs a round trip to the principal's object.
    if (before && before.status !== record.status) await outbox.updateIndex(record);
    await observers.notify(record, appended, storage.state);
  }

  /** Appends events to the log and hands them to the readers; the record is unchanged (a log line) or saved by commit. */
  append(events: NewTaskEvent[]): TaskEvent[] {
    if (events.length === 0) return [];
    const appended = this.deps.storage.append(events, Date.now());
    this.deps.feed.push(appended);
    return appended;
  }
}
