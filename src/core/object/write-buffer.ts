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
import type { MemoTable } from "./schema";

/** A row as TaskStorage stores it: JSON text, so a read returns what a stored row would. */
export interface HeldRow {
  json: string;
  at: number;
}

export class TaskWriteBuffer {
  record?: TaskRecord;
  readonly events: TaskEvent[] = [];
  /** Memoized rows by table, then key. */
  readonly memos = new Map<MemoTable, Map<string, HeldRow>>();
  /** Partial pieces by number. */
  readonly pieces = new Map<number, HeldRow>();
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

  memo(table: MemoTable, key: string): HeldRow | undefined {
    return this.memos.get(table)?.get(key);
  }

  /** Stores a row once, like MemoRows.put (memo-rows.ts); false if it was already stored. */
  putMemo(table: MemoTable, key: string, value: unknown, at: number): boolean {
    let rows = this.memos.get(table);
    if (!rows) this.memos.set(table, (rows = new Map()));
    if (rows.has(key)) return false;
    rows.set(key, { json: JSON.stringify(value ?? null), at });
    return true;
  }
}
