/**
 * A new task's writes held in memory while a plain call's first moments last (launch.ts): the
 * record, its events (with the sequence numbers and times they got) and its steps, as TaskStorage
 * would have stored them. Nothing of it is durable until TaskStorage.persist() writes it in one turn:
 * a call that ends within its first moments answers without waiting for a commit, and one that does
 * not is written before its call answers.
 */
import type { AdapterStateEntry } from "./adapter-state";
import type { NewTaskEvent, TaskEvent } from "../model/events";
import type { TaskRecord } from "../model/record";

export class TaskWriteBuffer {
  record?: TaskRecord;
  readonly events: TaskEvent[] = [];
  /** Step results as the JSON text TaskStorage stores, so a read returns what a stored step would. */
  readonly steps = new Map<string, { json: string; at: number }>();
  readonly state: AdapterStateEntry[] = [];

  lastSeq(): number {
    return this.events.at(-1)?.seq ?? 0;
  }

  append(events: NewTaskEvent[], at: number): TaskEvent[] {
    const appended = events.map((event, i): TaskEvent => ({ ...event, seq: this.lastSeq() + 1 + i, at }));
    this.events.push(...appended);
    return appended;
  }

  eventsAfter(seq: number, limit: number): TaskEvent[] {
    return this.events.filter((event) => event.seq > seq).slice(0, limit);
  }

  /** Stores a step's result once, like TaskStorage.putStep; false if it was already stored. */
  putStep(name: string, value: unknown, at: number): boolean {
    if (this.steps.has(name)) return false;
    this.steps.set(name, { json: JSON.stringify(value ?? null), at });
    return true;
  }
}
