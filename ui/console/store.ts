/** The tasks the page shows, keyed by id, with one callback per change for the view. */
import { fromListed, mergeListed, newestFirst, type TaskState } from "./state";
import type { ListedTask } from "./schema";

export interface StoreListener {
  changed(state: TaskState, previous: TaskState | undefined): void;
  removed(taskId: string): void;
}

export class TaskStore {
  private readonly tasks = new Map<string, TaskState>();

  constructor(private readonly listener: StoreListener) {}

  get(taskId: string): TaskState | undefined {
    return this.tasks.get(taskId);
  }

  /** Newest first. */
  all(): TaskState[] {
    return [...this.tasks.values()].sort(newestFirst);
  }

  get size(): number {
    return this.tasks.size;
  }

  /** Folds in list entries: new tasks appear, known ones take the index's status. */
  merge(listed: readonly ListedTask[]): void {
    for (const entry of listed) {
      const previous = this.tasks.get(entry.taskId);
      this.set(previous ? mergeListed(previous, entry) : fromListed(entry), previous);
    }
  }

  update(taskId: string, change: (state: TaskState) => TaskState): void {
    const previous = this.tasks.get(taskId);
    if (previous) this.set(change(previous), previous);
  }

  /** Forgets every task (signing out, or in as someone else). */
  clear(): void {
    for (const taskId of [...this.tasks.keys()]) this.remove(taskId);
  }

  remove(taskId: string): void {
    if (this.tasks.delete(taskId)) this.listener.removed(taskId);
  }

  private set(state: TaskState, previous: TaskState | undefined): void {
    if (state === previous) return;
    this.tasks.set(state.taskId, state);
    this.listener.changed(state, previous);
  }
}
