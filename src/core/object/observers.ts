/**
 * The TaskObject's observers (webhooks, the 2025 session streams, the transition log: ports.ts),
 * told of each commit's events, and the set of those still at work: a new adapter-state entry
 * waits for them (settled), so what they note about earlier events (a question delivered to a
 * live reader) is stored before the new entry is, and its adapter reads both in order.
 */
import type { AdapterStateWriter } from "./adapter-state";
import type { TaskObserver } from "../ports";
import type { TaskEvent } from "../model/events";
import type { TaskRecord, TaskStatus } from "../model/record";

export class TaskObservers<E extends object> {
  private readonly working = new Set<Promise<void>>();

  constructor(
    private readonly observers: readonly TaskObserver<E>[],
    private readonly env: E,
    /** An observer handed the task's questions to a reader (TaskObserverContext.received). */
    private readonly received: () => void,
  ) {}

  /** Tells every observer; a failing one is logged, never thrown, and never stops the others. */
  async notify(
    record: TaskRecord,
    events: TaskEvent[],
    state: AdapterStateWriter,
    previousStatus?: TaskStatus,
  ): Promise<void> {
    if (events.length === 0 || this.observers.length === 0) return;
    const done = Promise.all(
      this.observers.map((observe) =>
        observe({
          env: this.env,
          record,
          events,
          state,
          received: this.received,
          ...(previousStatus !== undefined && { previousStatus }),
        }).catch((error: unknown) => console.error("task observer failed", record.taskId, error)),
      ),
    ).then(() => undefined);
    this.working.add(done);
    try {
      await done;
    } finally {
      this.working.delete(done);
    }
  }

  /** Resolves once the observers of every event committed so far are done. */
  async settled(): Promise<void> {
    if (this.working.size > 0) await Promise.all(this.working);
  }
}
