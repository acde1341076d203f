/**
 * The TaskObject's SQLite tables (schema.ts): the task record, its append-only event log, what its
 * job memoizes (steps, sleeps, answers, notes, publishes), its partial pieces, and the adapters'
 * state (adapter-state.ts). Every method is synchronous; a sequence number and its row are written
 * in one statement. A database written by release 0.1 is migrated at its first read.
 */
import type { WireEvent } from "../../streams/feed-frames";
import { AdapterStateStore, type AdapterStateEntry } from "./adapter-state";
import { FanOutStorage } from "../fan-out/tables";
import { taskEventFromJson, type NewTaskEvent, type TaskEvent } from "../model/events";
import type { TaskRecord } from "../model/record";
import {
  CREATE,
  isRelease01,
  MEMO_KINDS,
  MEMO_TABLES,
  migrateRelease01,
  SCHEMA_VERSION,
  type MemoTable,
} from "./schema";
import { TaskWriteBuffer } from "./write-buffer";

/** Runs `fn` in one SQLite transaction (DurableObjectStorage.transactionSync). */
export type Transact = <T>(fn: () => T) => T;

export class TaskStorage {
  /**
   * Whether the tables exist; undefined until first checked. The tables are created by the first
   * save, not by the constructor: looking up an unknown or foreign task id, or discarding an unused
   * pre-provisioned one, then leaves no database behind.
   */
  private ready: boolean | undefined;
  readonly state: AdapterStateStore;
  readonly fanOuts: FanOutStorage;
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
  /** The tables this database has (schema.ts creates each when first written). */
  private readonly tables = new Set<string>();
  /** The schema the task was first written with (known with the record). */
  private firstSchema = SCHEMA_VERSION;

  constructor(
    private readonly sql: SqlStorage,
    private readonly transact: Transact = (fn) => fn(),
  ) {
    this.state = new AdapterStateStore(sql, () => this.lastSeq());
    this.fanOuts = new FanOutStorage(sql);
  }

  /**
   * Creates the tables every task uses, in a database that has none yet (a pooled object's, ahead of
   * its task; after deleteAll(), so a reused instance keeps working). Every task is a new database,
   * so each statement here is parsed and run once per task: no AUTOINCREMENT (its sqlite_sequence
   * table is one more write per insert; rows are never deleted one by one, so a plain INTEGER
   * PRIMARY KEY never reuses a sequence number either).
   */
  ensureSchema(): void {
    if (this.hasSchema()) return;
    this.ready = true;
    this.sql.exec(`${CREATE.task}; ${CREATE.events};`);
    this.tables.add("task").add("events");
  }

  /**
   * Every table a task may use, made ahead of its task (a pooled object's prepare): a job that
   * steps, sleeps or publishes then makes none on its own call's path.
   */
  ensureAllTables(): void {
    this.ensureSchema();
    for (const table of [...MEMO_KINDS, "pieces" as const]) this.ensureTable(table);
  }

  /** Creates `table` (schema.ts) if this database has none yet. */
  private ensureTable(table: MemoTable | "pieces"): void {
    const name = table === "pieces" ? table : MEMO_TABLES[table];
    if (this.tables.has(name)) return;
    if (!this.hasSchema()) this.ensureSchema();
    this.sql.exec(CREATE[table]);
    this.tables.add(name);
  }

  /** The task was first written by release 0.1: its job may hold 0.1's durable names (src/jobs/legacy-names.ts). */
  get recordedByRelease01(): boolean {
    this.load();
    return this.firstSchema < 2;
  }

  /** After deleteAll(): leave the database empty (an unused object must leave nothing behind) until the next save. */
  dropped(): void {
    this.ready = false;
    this.tables.clear();
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
    if (!this.hasSchema()) this.ensureSchema();
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
    for (const [table, rows] of buffer.memos) {
      this.ensureTable(table);
      for (const [key, row] of rows)
        this.sql.exec(
          `INSERT INTO ${MEMO_TABLES[table]} (key, value, at) VALUES (?, ?, ?) ON CONFLICT(key) DO NOTHING`,
          key,
          row.json,
          row.at,
        );
    }
    if (buffer.pieces.size > 0) this.ensureTable("pieces");
    for (const [n, row] of buffer.pieces)
      this.sql.exec(
        "INSERT INTO pieces (n, content, at) VALUES (?, ?, ?) ON CONFLICT(n) DO NOTHING",
        n,
        row.json,
        row.at,
      );
  }

  private hasSchema(): boolean {
    if (this.ready === undefined) {
      for (const row of this.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'"))
        this.tables.add(row.name);
      if (isRelease01(this.tables)) this.migrate();
      this.ready = this.tables.has("task");
      if (!this.ready) this.foundEmpty();
    }
    return this.ready;
  }

  /** Release 0.1's database, at its first read here: moved to this schema in one transaction (schema.ts). */
  private migrate(): void {
    this.transact(() => migrateRelease01(this.sql));
    this.tables.clear();
    for (const row of this.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'"))
      this.tables.add(row.name);
  }

  load(): TaskRecord | undefined {
    if (this.buffer) return this.buffer.record;
    if (this.known) return this.known.record;
    if (!this.hasSchema()) return undefined;
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
    if (!this.hasSchema()) this.ensureSchema();
    this.sql.exec(
      "INSERT INTO task (id, record) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET record = excluded.record",
      JSON.stringify(record),
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
    for (const row of this.sql.exec<{ seq: number; type: string; data: string; at: number }>(
      "SELECT seq, type, data, at FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
      seq,
      limit,
    )) {
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
    return this.sql
      .exec<{ seq: number; type: string; data: string; at: number }>(
        "SELECT seq, type, data, at FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
        seq,
        limit,
      )
      .toArray()
      .map((row) => ({ seq: row.seq, type: row.type, at: row.at, rawData: row.data }));
  }

  lastSeq(): number {
    if (this.buffer) return this.buffer.lastSeq();
    if (this.seq !== undefined) return this.seq;
    // Adapter state attached with a new task comes before its first event (and its tables).
    if (!this.hasSchema()) return 0;
    this.seq = this.sql.exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM events").one().seq ?? 0;
    return this.seq;
  }

  /** The row under `key` in `table` (schema.ts), if stored. */
  memo(table: MemoTable, key: string): { value: unknown } | undefined {
    const held = this.buffer?.memo(table, key);
    if (held) return { value: JSON.parse(held.json) as unknown };
    if (this.buffer || !this.hasSchema() || !this.tables.has(MEMO_TABLES[table])) return undefined;
    const row = this.sql
      .exec<{ value: string }>(`SELECT value FROM ${MEMO_TABLES[table]} WHERE key = ?`, key)
      .toArray()[0];
    return row ? { value: JSON.parse(row.value) as unknown } : undefined;
  }

  /** Stores a row once; returns false if it was already stored (a concurrent duplicate run). */
  putMemo(table: MemoTable, key: string, value: unknown, at: number): boolean {
    if (this.buffer) return this.buffer.putMemo(table, key, value, at);
    this.ensureTable(table);
    const cursor = this.sql.exec(
      `INSERT INTO ${MEMO_TABLES[table]} (key, value, at) VALUES (?, ?, ?) ON CONFLICT(key) DO NOTHING`,
      key,
      JSON.stringify(value ?? null),
      at,
    );
    return cursor.rowsWritten > 0;
  }

  /** Pieces numbered after `after`, in order, at most `limit` of them. */
  pieces(after: number, limit: number): { n: number; content: unknown }[] {
    if (this.buffer)
      return [...this.buffer.pieces]
        .filter(([n]) => n > after)
        .sort(([a], [b]) => a - b)
        .slice(0, limit)
        .map(([n, row]) => ({ n, content: JSON.parse(row.json) as unknown }));
    if (!this.hasSchema() || !this.tables.has("pieces")) return [];
    return this.sql
      .exec<{ n: number; content: string }>(
        "SELECT n, content FROM pieces WHERE n > ? ORDER BY n LIMIT ?",
        after,
        limit,
      )
      .toArray()
      .map((row) => ({ n: row.n, content: JSON.parse(row.content) as unknown }));
  }

  putPiece(n: number, content: unknown, at: number): void {
    const json = JSON.stringify(content);
    if (this.buffer) {
      this.buffer.pieces.set(n, { json, at });
      return;
    }
    this.ensureTable("pieces");
    this.sql.exec("INSERT INTO pieces (n, content, at) VALUES (?, ?, ?) ON CONFLICT(n) DO NOTHING", n, json, at);
  }

  /** Bytes used by this task's tables (for the storage benchmark). */
  databaseSize(): number {
    return this.sql.databaseSize;
  }
}
