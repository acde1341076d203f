/**
 * One event log's occurrences in its Durable Object's SQLite: appended once per `eventId` (a
 * repeated emit is a no-op), read after a position, pruned past the retention window. The log
 * keeps the highest position it ever pruned, so a reader behind it learns it missed something.
 */
import { isRecord, type JsonObject } from "../json";

export interface Occurrence {
  seq: number;
  eventId: string;
  name: string;
  /** ms since the epoch, when it occurred. */
  at: number;
  data: JsonObject;
}

export interface NewOccurrence {
  eventId: string;
  name: string;
  at: number;
  data: JsonObject;
}

interface Row extends Record<string, SqlStorageValue> {
  seq: number;
  event_id: string;
  name: string;
  at: number;
  data: string;
}

const toOccurrence = (row: Row): Occurrence | undefined => {
  const data: unknown = JSON.parse(row.data);
  return isRecord(data) ? { seq: row.seq, eventId: row.event_id, name: row.name, at: row.at, data } : undefined;
};

export class OccurrenceLog {
  constructor(private readonly sql: SqlStorage) {
    sql.exec(`
      CREATE TABLE IF NOT EXISTS occurrences (
        seq INTEGER PRIMARY KEY AUTOINCREMENT, event_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL,
        at INTEGER NOT NULL, data TEXT NOT NULL
      );
      CREATE TABLE IF NOT EXISTS log_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `);
  }

  /** This log's life: a cursor of another epoch is a gap (cursor.ts). */
  get epoch(): string {
    const row = this.sql.exec<{ value: string }>("SELECT value FROM log_meta WHERE key = 'epoch'").toArray()[0];
    if (row) return row.value;
    const epoch = [...crypto.getRandomValues(new Uint8Array(8))].map((b) => b.toString(16).padStart(2, "0")).join("");
    this.sql.exec("INSERT INTO log_meta (key, value) VALUES ('epoch', ?)", epoch);
    return epoch;
  }

  /** The event type this log holds, once anything named it. */
  get typeName(): string | undefined {
    return this.sql.exec<{ value: string }>("SELECT value FROM log_meta WHERE key = 'name'").toArray()[0]?.value;
  }

  nameType(name: string): void {
    this.sql.exec("INSERT INTO log_meta (key, value) VALUES ('name', ?) ON CONFLICT (key) DO NOTHING", name);
  }

  /** Appends what is new (by eventId); returns the occurrences actually added, in order. */
  append(items: readonly NewOccurrence[]): Occurrence[] {
    const added: Occurrence[] = [];
    for (const item of items) {
      this.nameType(item.name);
      const row = this.sql
        .exec<Row>(
          "INSERT INTO occurrences (event_id, name, at, data) VALUES (?, ?, ?, ?) ON CONFLICT (event_id) DO NOTHING RETURNING *",
          item.eventId,
          item.name,
          item.at,
          JSON.stringify(item.data),
        )
        .toArray()[0];
      const occurrence = row ? toOccurrence(row) : undefined;
      if (occurrence) added.push(occurrence);
    }
    return added;
  }

  /** The last position written (0 for an empty log). */
  lastSeq(): number {
    return this.sql.exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM occurrences").one().seq ?? this.pruned();
  }

  /** Everything at or before this position was pruned. */
  pruned(): number {
    const row = this.sql.exec<{ value: string }>("SELECT value FROM log_meta WHERE key = 'pruned'").toArray()[0];
    return row ? Number(row.value) : 0;
  }

  /** Up to `limit` occurrences after `after`, oldest first. */
  after(after: number, limit: number): Occurrence[] {
    const rows = this.sql
      .exec<Row>("SELECT * FROM occurrences WHERE seq > ? ORDER BY seq LIMIT ?", after, limit)
      .toArray();
    return rows.flatMap((row) => toOccurrence(row) ?? []);
  }

  /** The position just before the first occurrence at or after `at` (a replay by age starts there). */
  positionBefore(at: number): number {
    const row = this.sql
      .exec<{ seq: number | null }>("SELECT MIN(seq) AS seq FROM occurrences WHERE at >= ?", at)
      .one();
    return row.seq === null ? this.lastSeq() : row.seq - 1;
  }

  /** Drops occurrences older than `before`, keeping the newest `keep` at most; returns how many went. */
  prune(before: number, keep: number): number {
    const cut = this.sql
      .exec<{ seq: number | null }>(
        "SELECT MAX(seq) AS seq FROM occurrences WHERE at < ? OR seq <= (SELECT MAX(seq) FROM occurrences) - ?",
        before,
        keep,
      )
      .one().seq;
    if (cut === null) return 0;
    const gone = this.sql.exec("DELETE FROM occurrences WHERE seq <= ?", cut).rowsWritten;
    this.sql.exec(
      "INSERT INTO log_meta (key, value) VALUES ('pruned', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      String(cut),
    );
    return gone;
  }

  /** The oldest occurrence's time, for the next prune. */
  oldestAt(): number | undefined {
    return this.sql.exec<{ at: number | null }>("SELECT MIN(at) AS at FROM occurrences").one().at ?? undefined;
  }
}
