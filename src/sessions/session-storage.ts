/**
 * The SessionObject's SQLite tables: the session record, its GET stream's event log
 * (bounded: the oldest events are dropped, and a resume from before them is refused)
 * and its resource subscriptions. Every method is synchronous.
 */

export interface SessionInfo {
  sessionId: string;
  principal: string;
  protocolVersion: string;
  capabilities: Record<string, unknown>;
  clientInfo?: Record<string, unknown>;
  createdAt: number;
  lastSeenAt: number;
}

export interface SessionEvent {
  seq: number;
  /** The JSON-RPC message, serialized once. */
  data: string;
}

/** How many GET-stream events a session keeps for resumption. */
export const SESSION_LOG_LIMIT = 1000;

export class SessionStorage {
  constructor(private readonly sql: SqlStorage) {
    this.ensureSchema();
  }

  ensureSchema(): void {
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS session (id INTEGER PRIMARY KEY CHECK (id = 1), info TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY AUTOINCREMENT, data TEXT NOT NULL, at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS subscriptions (uri TEXT PRIMARY KEY);
      CREATE TABLE IF NOT EXISTS delivered (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL);
    `);
  }

  load(): SessionInfo | undefined {
    const row = this.sql.exec<{ info: string }>("SELECT info FROM session WHERE id = 1").toArray()[0];
    return row ? (JSON.parse(row.info) as SessionInfo) : undefined;
  }

  save(info: SessionInfo): void {
    this.sql.exec(
      "INSERT INTO session (id, info) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET info = excluded.info",
      JSON.stringify(info),
    );
  }

  /** Appends one message and trims the log to its limit; returns the new event. */
  append(data: string, at: number): SessionEvent {
    const { seq } = this.sql
      .exec<{ seq: number }>("INSERT INTO events (data, at) VALUES (?, ?) RETURNING seq", data, at)
      .one();
    if (seq > SESSION_LOG_LIMIT) this.sql.exec("DELETE FROM events WHERE seq <= ?", seq - SESSION_LOG_LIMIT);
    return { seq, data };
  }

  eventsAfter(seq: number, limit = 500): SessionEvent[] {
    return this.sql
      .exec<{ seq: number; data: string }>(
        "SELECT seq, data FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
        seq,
        limit,
      )
      .toArray();
  }

  /** Highest sequence number issued; trimming only drops old events, so the newest stays. */
  lastSeq(): number {
    return this.sql.exec<{ seq: number | null }>("SELECT MAX(seq) AS seq FROM events").one().seq ?? 0;
  }

  /** Lowest sequence number still stored, or lastSeq()+1 when the log is empty. */
  firstSeq(): number {
    const row = this.sql.exec<{ seq: number | null }>("SELECT MIN(seq) AS seq FROM events").one();
    return row.seq ?? this.lastSeq() + 1;
  }

  /** The highest sequence number ever handed to a reader, live or in a replay (0: none). */
  deliveredThrough(): number {
    return this.sql.exec<{ seq: number }>("SELECT seq FROM delivered WHERE id = 1").toArray()[0]?.seq ?? 0;
  }

  markDelivered(seq: number): void {
    this.sql.exec(
      "INSERT INTO delivered (id, seq) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET seq = MAX(seq, excluded.seq)",
      seq,
    );
  }

  subscribe(uri: string): void {
    this.sql.exec("INSERT INTO subscriptions (uri) VALUES (?) ON CONFLICT(uri) DO NOTHING", uri);
  }

  unsubscribe(uri: string): boolean {
    return this.sql.exec("DELETE FROM subscriptions WHERE uri = ?", uri).rowsWritten > 0;
  }

  subscriptions(): string[] {
    return this.sql
      .exec<{ uri: string }>("SELECT uri FROM subscriptions ORDER BY uri")
      .toArray()
      .map((row) => row.uri);
  }
}
