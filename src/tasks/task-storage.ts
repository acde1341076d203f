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

export class TaskStorage {
  /**
   * Whether the tables exist; undefined until first checked. The tables are created by the first
   * save (or by prepare()), not by the constructor: looking up an unknown or foreign task id, or
   * discarding an unused pre-provisioned one, then leaves no database behind.
   */
  private ready: boolean | undefined;

  constructor(private readonly sql: SqlStorage) {}

  /** Creates the tables; also after deleteAll() so a reused instance keeps working. */
  ensureSchema(): void {
    this.ready = true;
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS task (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, type TEXT NOT NULL, data TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS steps (name TEXT PRIMARY KEY, value TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS streams (key INTEGER PRIMARY KEY AUTOINCREMENT, meta TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS watchers (session TEXT PRIMARY KEY);
    `);
  }

  /** After deleteAll(): leave the database empty (an unused object must leave nothing behind) until the next save. */
  dropped(): void {
    this.ready = false;
  }

  private hasSchema(): boolean {
    this.ready ??= this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'task'").toArray().length > 0;
    return this.ready;
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
    return this.sql.exec<{ key: number }>("INSERT INTO streams (meta) VALUES (?) RETURNING key", JSON.stringify(meta)).one().key;
  }

  stream(key: number): StreamMeta | undefined {
    const row = this.sql.exec<{ meta: string }>("SELECT meta FROM streams WHERE key = ?", key).toArray()[0];
    return row ? { ...(JSON.parse(row.meta) as Omit<StreamMeta, "key">), key } : undefined;
  }

  endStream(key: number, endSeq: number): void {
    const meta = this.stream(key);
    if (meta) this.sql.exec("UPDATE streams SET meta = ? WHERE key = ?", JSON.stringify({ ...meta, endSeq }), key);
  }

  /** Sessions subscribed to this task (resources/subscribe). */
  watch(sessionId: string): void {
    this.sql.exec("INSERT INTO watchers (session) VALUES (?) ON CONFLICT(session) DO NOTHING", sessionId);
  }

  unwatch(sessionId: string): void {
    this.sql.exec("DELETE FROM watchers WHERE session = ?", sessionId);
  }

  watchers(): string[] {
    return this.sql.exec<{ session: string }>("SELECT session FROM watchers").toArray().map((row) => row.session);
  }

  /** Bytes used by this task's tables (for the storage benchmark). */
  databaseSize(): number {
    return this.sql.databaseSize;
  }
}
