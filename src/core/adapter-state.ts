/**
 * State the protocol adapters keep with a task (a 2025 response stream's request id, the sessions
 * subscribed to it): entries by (kind, key) whose JSON values only their adapter reads. The core
 * stores them with the task, deletes them with it and never looks inside. The table is made by the
 * first entry, so the many tasks that never get one pay nothing; entries are cached per instance.
 */
import type { JsonObject } from "./task-record";

export interface AdapterStateEntry {
  kind: string;
  key: string;
  value: JsonObject;
}

export interface AdapterStateReader {
  lookup(kind: string, key: string): JsonObject | undefined;
  list(kind: string): AdapterStateEntry[];
}

const TABLE = "CREATE TABLE IF NOT EXISTS adapter_state (kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (kind, key))";

export class AdapterStateStore implements AdapterStateReader {
  private readonly kinds = new Map<string, Map<string, JsonObject>>();
  private exists: boolean | undefined;

  constructor(private readonly sql: SqlStorage) {}

  /** Stores `value` under (kind, key), replacing what was there; without a key, the next free number. Returns the key. */
  attach(kind: string, value: JsonObject, key?: string): string {
    if (!this.tableExists()) {
      this.sql.exec(TABLE);
      this.exists = true;
    }
    const entries = this.entries(kind);
    const chosen = key ?? String(Math.max(0, ...[...entries.keys()].map(Number).filter(Number.isSafeInteger)) + 1);
    this.sql.exec("INSERT INTO adapter_state (kind, key, value) VALUES (?, ?, ?) ON CONFLICT(kind, key) DO UPDATE SET value = excluded.value", kind, chosen, JSON.stringify(value));
    entries.set(chosen, value);
    return chosen;
  }

  lookup(kind: string, key: string): JsonObject | undefined {
    return this.entries(kind).get(key);
  }

  list(kind: string): AdapterStateEntry[] {
    return [...this.entries(kind)].map(([key, value]) => ({ kind, key, value }));
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
  }

  private tableExists(): boolean {
    this.exists ??= this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'adapter_state'").toArray().length > 0;
    return this.exists;
  }

  private entries(kind: string): Map<string, JsonObject> {
    let entries = this.kinds.get(kind);
    if (!entries) {
      entries = new Map();
      if (this.tableExists()) {
        for (const row of this.sql.exec<{ key: string; value: string }>("SELECT key, value FROM adapter_state WHERE kind = ?", kind)) {
          entries.set(row.key, JSON.parse(row.value));
        }
      }
      this.kinds.set(kind, entries);
    }
    return entries;
  }
}
