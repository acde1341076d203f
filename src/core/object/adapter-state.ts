/**
 * State the protocol adapters keep with a task (a 2025 response stream's request id, the sessions
 * subscribed to it): entries by (kind, key) whose JSON values only their adapter reads. The core
 * stores them with the task, deletes them with it and never looks inside. The table is made by the
 * first entry, so the many tasks that never get one pay nothing; entries are cached per instance.
 *
 * Each entry also records when it was open, in the task's own clock (its event sequence numbers):
 * `spans` are the ranges (since, until] of events committed while it was open. Attaching opens it,
 * `close` ends the open span. Both happen in the object's single thread,
 * so every event falls on one side of each boundary: an adapter that must send a message on exactly
 * one of several streams (docs/streams.md, "Who hears what") decides by these spans.
 */
import type { JsonObject } from "../../json";

/** Events with since < seq ≤ until (until null: still open) were committed while the entry was open. */
export type StateSpan = [since: number, until: number | null];

export interface AdapterStateEntry {
  kind: string;
  key: string;
  value: JsonObject;
}

export interface OpenStateEntry extends AdapterStateEntry {
  spans: StateSpan[];
}

export interface AdapterStateReader {
  lookup(kind: string, key: string): JsonObject | undefined;
  list(kind: string): OpenStateEntry[];
}

/** What observers may do with the state: read it, and keep a note of what they did (a delivery, say). */
export interface AdapterStateWriter extends AdapterStateReader {
  attach(kind: string, value: JsonObject, key?: string): string;
}

/** Where a feed opened for a resume (gateway.openFeed's `state`) carries the entry's spans beside its value. */
export const STATE_SPANS_FIELD = "~spans";

/** Whether `seq` was committed while the entry was open. */
export const isOpenAt = (spans: readonly StateSpan[], seq: number): boolean =>
  spans.some(([since, until]) => seq > since && (until === null || seq <= until));

const TABLE =
  "CREATE TABLE IF NOT EXISTS adapter_state (kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, spans TEXT NOT NULL DEFAULT '[]', PRIMARY KEY (kind, key))";

export class AdapterStateStore implements AdapterStateWriter {
  private readonly kinds = new Map<string, Map<string, { value: JsonObject; spans: StateSpan[] }>>();
  /** Whether the table exists; undefined until checked or known. */
  private exists: boolean | undefined;
  /** This instance made the table, so every entry in it was written here and is cached: nothing to read back. */
  private madeHere = false;

  /** `lastSeq` is the task's event clock: the sequence number of its latest event. */
  constructor(
    private readonly sql: SqlStorage,
    private readonly lastSeq: () => number,
  ) {}

  /** Stores `value` under (kind, key), replacing what was there (its spans stay); without a key, the next free number. Returns the key. */
  attach(kind: string, value: JsonObject, key?: string): string {
    this.prepare();
    const entries = this.entries(kind);
    const chosen = key ?? String(Math.max(0, ...[...entries.keys()].map(Number).filter(Number.isSafeInteger)) + 1);
    const spans = entries.get(chosen)?.spans ?? [[this.lastSeq(), null]];
    this.write(kind, chosen, value, spans);
    return chosen;
  }

  lookup(kind: string, key: string): JsonObject | undefined {
    return this.entries(kind).get(key)?.value;
  }

  entry(kind: string, key: string): OpenStateEntry | undefined {
    const entry = this.entries(kind).get(key);
    return entry && { kind, key, ...entry };
  }

  list(kind: string): OpenStateEntry[] {
    return [...this.entries(kind)].map(([key, entry]) => ({ kind, key, ...entry }));
  }

  /**
   * Ends the entry's open span at the latest event; returns where its last span ends. Undefined:
   * no such entry, or `ifSpans` was given and the entry has another number of spans (it was renewed
   * since its closer last knew it: the closer is no longer its only holder, and must not close it).
   */
  close(kind: string, key: string, ifSpans?: number): number | undefined {
    const entry = this.entries(kind).get(key);
    const last = entry?.spans.at(-1);
    if (!entry || !last || (ifSpans !== undefined && entry.spans.length !== ifSpans)) return undefined;
    if (last[1] !== null) return last[1];
    const until = Math.max(last[0], this.lastSeq());
    this.write(kind, key, entry.value, [...entry.spans.slice(0, -1), [last[0], until]]);
    return until;
  }

  /**
   * Splits an open entry's span at the latest event, so it stays open for every event exactly as
   * before, but a close that names the old number of spans no longer applies (a resumed stream
   * takes the entry over from a follower that may be dead). No-op on a closed or unknown entry.
   */
  renew(kind: string, key: string): void {
    const entry = this.entries(kind).get(key);
    const last = entry?.spans.at(-1);
    if (!entry || !last || last[1] !== null) return;
    const at = Math.max(last[0], this.lastSeq());
    this.write(kind, key, entry.value, [...entry.spans.slice(0, -1), [last[0], at], [at, null]]);
  }

  detach(kind: string, key: string): void {
    const entries = this.entries(kind);
    if (!entries.delete(key)) return;
    this.sql.exec("DELETE FROM adapter_state WHERE kind = ? AND key = ?", kind, key);
  }

  /** The database was wiped (the task expired or an unused id was discarded). */
  reset(): void {
    this.kinds.clear();
    this.exists = undefined;
    this.madeHere = false;
  }

  /**
   * Makes the table ahead of the task (a pooled object's prepare, storage.ts): a plain 2025 call
   * attaches its response stream's entry at creation, and CREATE TABLE was most of that write.
   */
  prepare(): void {
    if (this.tableExists()) return;
    this.sql.exec(TABLE);
    this.exists = true;
    this.madeHere = true;
  }

  /** The task's storage found to have no tables yet (a new task's): there is no entry to look up until one is attached. */
  absent(): void {
    this.exists ??= false;
  }

  private write(kind: string, key: string, value: JsonObject, spans: StateSpan[]): void {
    this.sql.exec(
      "INSERT INTO adapter_state (kind, key, value, spans) VALUES (?, ?, ?, ?) ON CONFLICT(kind, key) DO UPDATE SET value = excluded.value, spans = excluded.spans",
      kind,
      key,
      JSON.stringify(value),
      JSON.stringify(spans),
    );
    this.entries(kind).set(key, { value, spans });
  }

  private tableExists(): boolean {
    if (this.exists === undefined) {
      const row = this.sql
        .exec<{ sql: string }>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'adapter_state'")
        .toArray()[0];
      // A table made before entries had spans gets the column (its entries count as open since the start).
      if (row && !row.sql.includes("spans"))
        this.sql.exec("ALTER TABLE adapter_state ADD COLUMN spans TEXT NOT NULL DEFAULT '[[0,null]]'");
      this.exists = row !== undefined;
    }
    return this.exists;
  }

  private entries(kind: string): Map<string, { value: JsonObject; spans: StateSpan[] }> {
    let entries = this.kinds.get(kind);
    if (!entries) {
      entries = new Map();
      if (!this.madeHere && this.tableExists()) {
        for (const row of this.sql.exec<{ key: string; value: string; spans: string }>(
          "SELECT key, value, spans FROM adapter_state WHERE kind = ?",
          kind,
        )) {
          entries.set(row.key, { value: JSON.parse(row.value), spans: JSON.parse(row.spans) });
        }
      }
      this.kinds.set(kind, entries);
    }
    return entries;
  }
}
