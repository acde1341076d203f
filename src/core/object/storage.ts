/**
 * The TaskObject's SQLite storage (schema.ts): the task record and its append-only event log, with
 * beside them the job's memoized rows (memo-rows.ts), its partial pieces (piece-rows.ts), the
 * adapters' state (adapter-state.ts) and fan-outs, in tables made when first written
 * (task-tables.ts). Every method is synchronous; a sequence number and its row are written in one
 * statement. A new task's writes may stay in memory until persist() (write-buffer.ts).
 */
import type { WireEvent } from "../../streams/feed-frames";
import { AdapterStateStore, type AdapterStateEntry } from "./adapter-state";
import { FanOutStorage } from "../fan-out/tables";
import { taskEventFromJson, type NewTaskEvent, type TaskEvent } from "../model/events";
import type { TaskRecord } from "../model/record";
import { MemoRows } from "./memo-rows";
import { PieceRows } from "./piece-rows";
import { SCHEMA_VERSION } from "./schema";
import { TaskTables, type Transact } from "./task-tables";
import { TaskWriteBuffer } from "./write-buffer";

/** An event's row: its data as the JSON text it was written as. */
type StoredEvent = { seq: number; type: string; data: string; at: number };

export class TaskStorage {
  private readonly tables: TaskTables;
  readonly state: AdapterStateStore;
  readonly fanOuts: FanOutStorage;
  readonly memos: MemoRows;
  readonly pieces: PieceRows;
  /** A new task's writes kept in memory until persist() (write-buffer.ts); undefined when writes go straight to SQLite. */
  private buffer: TaskWriteBuffer | undefined;
  /**
   * The stored record as this instance last read or wrote it (undefined: not known yet). Every write
   * of the record goes through save() in this single-threaded object, so a read in between needs no
   * SELECT and no JSON.parse: a running job reads it at each progress report.
   */
  private known: { record: TaskRecord | undefined } | undefined;
  /** The latest event's sequence number, kept like the record (every event is appended here); undefined: not known yet. */
  private seq: number | undefined;
  /** The schema the task was first written with (known with the record). */
  private firstSchema = SCHEMA_VERSION;

  constructor(
    private readonly sql: SqlStorage,
    transact: Transact = (fn) => fn(),
  ) {
    this.tables = new TaskTables(sql, transact, () => this.foundEmpty());
    this.state = new AdapterStateStore(sql, () => this.lastSeq());
    this.fanOuts = new FanOutStorage(sql);
    const held = (): TaskWriteBuffer | undefined => this.buffer;
    this.memos = new MemoRows(sql, this.tables, held);
    this.pieces = new PieceRows(sql, this.tables, held);
  }

  /** Creates the task's own tables in a database that has none yet (task-tables.ts). */
  ensureSchema(): void {
    this.tables.ensureSchema();
  }

  /**
   * A pooled object's tables, ahead of its task: the task's own and the adapter state's, which every
   * task writes; a job's tables are made by their first write (schema.ts).
   */
  prepareTables(): void {
    this.tables.ensureSchema();
    this.state.prepare();
  }

  /** The task was first written by release 0.1: its job may hold 0.1's durable names (src/jobs/legacy-names.ts). */
  get recordedByRelease01(): boolean {
    this.load();
    return this.firstSchema < 2;
  }

  /** After deleteAll(): leave the database empty (an unused object must leave nothing behind) until the next save. */
  dropped(): void {
    this.tables.dropped();
    this.firstSchema = SCHEMA_VERSION;
    this.state.reset();
    this.fanOuts.reset();
    this.foundEmpty();
  }

  /**
   * A database without the task table holds nothing else of a task either (the tables and a new
   * task's first rows are written in one turn): its record, event clock and adapter state are known
   * without a read, each one SQL statement fewer to parse in the new task's database.
   */
  private foundEmpty(): void {
    this.known = { record: undefined };
    this.seq = 0;
    this.state.absent();
  }

  /** From now until persist(), this new task's record, events, steps and initial adapter state stay in memory. */
  defer(): void {
    this.buffer ??= new TaskWriteBuffer();
  }

  get deferred(): boolean {
    return this.buffer !== undefined;
  }

  /** The adapters' state written with a new task (before its first event, so it is open from the start). */
  attachInitialState(entries: readonly AdapterStateEntry[]): void {
    if (this.buffer) this.buffer.state.push(...entries);
    else for (const entry of entries) this.state.attach(entry.kind, entry.value, entry.key);
  }

  /** Writes what was kept in memory, in this synchronous turn, and stops deferring; a no-op when nothing was deferred. */
  persist(): void {
    const buffer = this.buffer;
    if (!buffer) return;
    this.buffer = undefined;
    this.tables.ensureSchema();
    for (const entry of buffer.state) this.state.attach(entry.kind, entry.value, entry.key);
    if (buffer.record) this.save(buffer.record);
    for (const event of buffer.events)
      this.sql.exec(
        "INSERT INTO events (seq, type, data, at) VALUES (?, ?, ?, ?)",
        event.seq,
        event.type,
        JSON.stringify(event.data),
        event.at,
      );
    // A new task's events are the first in its database.
    if (buffer.events.length > 0) this.seq = buffer.lastSeq();
    this.memos.writeHeld(buffer.memos);
    this.pieces.writeHeld(buffer.pieces);
  }

  load(): TaskRecord | undefined {
    if (this.buffer) return this.buffer.record;
    if (this.known) return this.known.record;
    if (!this.tables.hasSchema()) return undefined;
    const row = this.sql
      .exec<{ record: string; first_schema: number }>("SELECT record, first_schema FROM task WHERE id = 1")
      .toArray()[0];
    const record = row ? (JSON.parse(row.record) as TaskRecord) : undefined;
    if (row) this.firstSchema = row.first_schema;
    this.known = { record };
    return record;
  }

  save(record: TaskRecord): void {
    if (this.buffer) {
      this.buffer.record = record;
      return;
    }
    this.tables.ensureSchema();
    // The first write of the row is a task of this schema, whatever the table's defaults say (a
    // database an earlier build migrated from 0.1 while it held no task has first_schema DEFAULT 1).
    this.sql.exec(
      "INSERT INTO task (id, record, schema, first_schema) VALUES (1, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET record = excluded.record",
      JSON.stringify(record),
      SCHEMA_VERSION,
      SCHEMA_VERSION,
    );
    this.known = { record };
  }

  append(events: NewTaskEvent[], at: number): TaskEvent[] {
    if (this.buffer) return this.buffer.append(events, at);
    return events.map((event) => {
      const row = this.sql
        .exec<{ seq: number }>(
          "INSERT INTO events (type, data, at) VALUES (?, ?, ?) RETURNING seq",
          event.type,
          JSON.stringify(event.data),
          at,
        )
        .one();
      this.seq = row.seq;
      return { ...event, seq: row.seq, at };
    });
  }

  eventsAfter(seq: number, limit = 1000): TaskEvent[] {
    if (this.buffer) return this.buffer.eventsAfter(seq, limit);
    const events: TaskEvent[] = [];
    for (const row of this.storedEventsAfter(seq, limit)) {
      const event = taskEventFromJson(row.seq, row.type, row.at, row.data);
      if (event) events.push(event);
    }
    return events;
  }

  /** The same events as stored, their data left as JSON text. */
  wireEventsAfter(seq: number, limit = 1000): WireEvent[] {
    if (this.buffer)
      return this.buffer
        .eventsAfter(seq, limit)
        .map((event) => ({ seq: event.seq, type: event.type, at: event.at, rawData: JSON.stringify(event.data) }));
    return this.storedEventsAfter(seq, limit)
      .toArray()
      .map((row) => ({ seq: row.seq, type: row.type, at: row.at, rawData: row.data }));
  }

  private storedEventsAfter(seq: number, limit: number): SqlStorageCursor<StoredEvent> {
    return this.sql.exec<StoredEvent>(
      "SELECT seq, type, data, at FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
      seq,
      limit,
    );
  }

  lastSeq(): number {
    if (this.buffer) return this.buffer.lastSeq();
    if (this.seq !== undefined) return this.seq;
    // Adapter state attached with a new task comes before its first event (and its tables).
    if (!this.tables.hasSchema()) return 0;
    this.seq = this.sql.exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM events").one().seq ?? 0;
    return this.seq;
  }

  /** Bytes used by this task's tables (for the storage benchmark). */
  databaseSize(): number {
    return this.sql.databaseSize;
  }
}
