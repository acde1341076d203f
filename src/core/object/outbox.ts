/**
 * What a TaskObject sends elsewhere: its fanned-out items' messages, and what the principal's
 * index keeps of it (its entry, its status changes, its removal). The task's own record stays the
 * source of truth, so a failed index call is logged, not thrown: the index may lag. Index calls
 * leave one at a time, in order, so a later status never arrives before an earlier one.
 */
import type { StepMessage } from "../fan-out/step-message";
import type { TaskRecord } from "../model/record";
import { toTaskView } from "../model/view";
import type { PrincipalIndex, PrincipalIndexes } from "../principal-index-port";
import type { MessageQueue } from "../queue-port";

export class TaskOutbox {
  private indexCalls: Promise<void> = Promise.resolve();
  /** Created under an admission slot and not yet reported to the index (client/slot-lease.ts). */
  private untracked = false;

  /** The step queue and the principals' indexes, both through the core's ports (src/index.ts wires them). */
  constructor(
    private readonly steps: MessageQueue<StepMessage>,
    private readonly indexes: PrincipalIndexes,
  ) {}

  /** Items' messages to the step queue (the port splits them within the queue's limits). Throws: the fan-out's alarm sends again. */
  async sendSteps(messages: StepMessage[]): Promise<void> {
    await this.steps.sendBatch(messages);
  }

  /** The task was created under an admission slot: its first index call reports it (track), not only its status. */
  expectTracking(): void {
    this.untracked = true;
  }

  /** Whether the index has yet to hear of this task at all. */
  get tracking(): boolean {
    return this.untracked;
  }

  /** Tells the index the task's view now: its entry for a task created under a slot, else a status change. */
  updateIndex(record: TaskRecord): Promise<void> {
    const track = this.untracked;
    this.untracked = false;
    // The index keeps the view as of the task's last change.
    const view = toTaskView(record, record.lastUpdatedAt);
    return this.inOrder("task index update failed", record, (index) =>
      track ? index.track(view, record.tool) : index.update(view),
    );
  }

  /** Tells the index of a task answered before it is written: listed at once, stored by the report that follows its write. */
  announceToIndex(record: TaskRecord): Promise<void> {
    return this.inOrder("task index announcement failed", record, (index) =>
      index.announce(toTaskView(record, record.lastUpdatedAt), record.tool),
    );
  }

  removeFromIndex(record: TaskRecord): Promise<void> {
    this.untracked = false;
    return this.inOrder("task index removal failed", record, (index) => index.remove(record.taskId));
  }

  private inOrder(failure: string, record: TaskRecord, call: (index: PrincipalIndex) => Promise<void>): Promise<void> {
    const index = this.indexes(record.principal);
    const next = this.indexCalls
      .then(() => call(index))
      .catch((error: unknown) => console.error(failure, record.taskId, error));
    this.indexCalls = next;
    return next;
  }
}
