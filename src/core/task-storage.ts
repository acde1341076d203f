/**
 * The TaskObject's SQLite tables: the task record, its append-only event log,
 * memoized step results and the registered response streams.
 * Every method is synchronous; a sequence number and its row are written in one statement.
 */
import type { JsonObject, NewTaskEvent, TaskEvent, TaskRecord } from "./model";

export interface StreamMeta {
  key: number;
  kind: string;
  requestId: string | number;
  progressToken?: string | number;
  /** The last sequence number this stream carries; a stream that ended early stops there on resume. */
  endSeq?: number;
}

type OptionalTable = "streams" | "watchers";

const OPTIONAL_TABLES: Record<OptionalTable, string> = {
  streams: "CREATE TABLE IF NOT EXISTS streams (key INTEGER PRIMARY KEY, meta TEXT NOT NULL)",
  watchers: "CREATE TABLE IF NOT EXISTS watchers (session TEXT PRIMARY KEY)",
};

export class TaskStorage {
  /**
   * Whether the tables exist; undefined until first checked. The tables are created by the first
   * save, not by the constructor: looking up an unknown or foreign task id, or discarding an unused
   * pre-provisioned one, then leaves no database behind.
   */
  private ready: boolean | undefined;
  /** The tables only some tasks need (response streams, subscribed sessions), once known to exist. */
  private readonly optional = new Map<OptionalTable, boolean>();

  constructor(private readonly sql: SqlStorage) {}

  /**
   * Creates the tables every task uses; also after deleteAll() so a reused instance keeps working.
   * Every task is a new database, so each statement here is parsed and run once per task: no
   * AUTOINCREMENT (its sqlite_sequence table is one more write per insert; rows are never deleted
   * one by one, so a plain INTEGER PRIMARY KEY never reuses a sequence number either).
   */
  ensureSchema(): void {
    this.ready = true;
    this.optional.clear();
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS task (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, data TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS steps (name TEXT PRIMARY KEY, value TEXT NOT NULL, at INTEGER NOT NULL);
    `);
  }

  /** After deleteAll(): leave the database empty (an unused object must leave nothing behind) until the next save. */
  dropped(): void {
    this.ready = false;
    this.optional.clear();
  }

  private hasSchema(): boolean {
    this.ready ??= this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'task'").toArray().length > 0;
    return this.ready;
  }

  /** Whether an optional table exists (checked once per instance); with `create`, it is made if missing. */
  private hasTable(table: OptionalTable, create = false): boolean {
    let exists = this.optional.get(table);
    if (exists === undefined) {
      exists = this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", table).toArray().length > 0;
      this.optional.set(table, exists);
    }
    if (!exists && create) {
      this.sql.exec(OPTIONAL_TABLES[table]);
      this.optional.set(table, true);
      return true;
    }
    return exists;
  }

  load(): TaskRecord | undefined {
    if (!this.hasSchema()) return undefined;
    const row = this.sql.exec<{ record: string }>("SELECT record FROM task WHERE id = 1").toArray()[0];
    return row ? (JSON.parse(row.record) as TaskRecord) : undefined;
  }

  save(record: TaskRecord): void {
    if (!this.hasSchema()) this.ensureSchema();
    this.sql.exec("INSERT INTO task (id, record) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET record = excluded.record", JSON.stringify(record));
  }

  append(events: NewTaskEvent[], at: number): TaskEvent[] {
    return events.map((event) => {
      const row = this.sql
        .exec<{ seq: number }>("INSERT INTO events (type, data, at) VALUES (?, ?, ?) RETURNING seq", event.type, JSON.stringify(event.data), at)
        .one();
      return { ...event, seq: row.seq, at };
    });
  }

  eventsAfter(seq: number, limit = 1000): TaskEvent[] {
    return this.sql
      .exec<{ seq: number; type: string; data: string; at: number }>("SELECT seq, type, data, at FROM events WHERE seq > ? ORDER BY seq LIMIT ?", seq, limit)
      .toArray()
      .map((row) => ({ seq: row.seq, type: row.type as TaskEvent["type"], data: JSON.parse(row.data) as JsonObject, at: row.at }));
  }

  lastSeq(): number {
    return this.sql.exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM events").one().seq ?? 0;
  }

  step(name: string): { value: unknown } | undefined {
    const row = this.sql.exec<{ value: string }>("SELECT value FROM steps WHERE name = ?", name).toArray()[0];
    return row ? { value: JSON.parse(row.value) as unknown } : undefined;
  }

  /** Stores a step's result once; returns false if it was already stored (a concurrent duplicate run). */
  putStep(name: string, value: unknown, at: number): boolean {
    const cursor = this.sql.exec("INSERT INTO steps (name, value, at) VALUES (?, ?, ?) ON CONFLICT(name) DO NOTHING", name, JSON.stringify(value ?? null), at);
    return cursor.rowsWritten > 0;
  }

  openStream(meta: Omit<StreamMeta, "key">): number {
    this.hasTable("streams", true);
    return this.sql.exec<{ key: number }>("INSERT INTO streams (meta) VALUES (?) RETURNING key", JSON.stringify(meta)).one().key;
  }

  stream(key: number): StreamMeta | undefined {
    if (!this.hasTable("streams")) return undefined;
    const row = this.sql.exec<{ meta: string }>("SELECT meta FROM streams WHERE key = ?", key).toArray()[0];
    return row ? { ...(JSON.parse(row.meta) as Omit<StreamMeta, "key">), key } : undefined;
  }

  endStream(key: number, endSeq: number): void {
    const meta = this.stream(key);
    if (meta) this.sql.exec("UPDATE streams SET meta = ? WHERE key = ?", JSON.stringify({ ...meta, endSeq }), key);
  }

  /** Sessions subscribed to this task (resources/subscribe). */
  watch(sessionId: string): void {
    this.hasTable("watchers", true);
    this.sql.exec("INSERT INTO watchers (session) VALUES (?) ON CONFLICT(session) DO NOTHING", sessionId);
  }

  unwatch(sessionId: string): void {
    if (!this.hasTable("watchers")) return;
    this.sql.exec("DELETE FROM watchers WHERE session = ?", sessionId);
  }

  watchers(): string[] {
    if (!this.hasTable("watchers")) return [];
    return this.sql.exec<{ session: string }>("SELECT session FROM watchers").toArray().map((row) => row.session);
  }

  /** Bytes used by this task's tables (for the storage benchmark). */
  databaseSize(): number {
    return this.sql.databaseSize;
  }
}
