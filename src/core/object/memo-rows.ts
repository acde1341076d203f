/**
 * What a task's job or engine memoizes (schema.ts, MEMO_TABLES): step results, sleeps' wake-up
 * times, answers, notes and publishes, one JSON value under a key, stored once. A new task's rows
 * are held in its write buffer (write-buffer.ts) until TaskStorage.persist() writes them.
 */
import { MEMO_TABLES, type MemoTable } from "./schema";
import type { TaskTables } from "./task-tables";
import type { HeldRow, TaskWriteBuffer } from "./write-buffer";

export class MemoRows {
  /** `held` is the new task's write buffer while its writes stay in memory (TaskStorage.defer). */
  constructor(
    private readonly sql: SqlStorage,
    private readonly tables: TaskTables,
    private readonly held: () => TaskWriteBuffer | undefined,
  ) {}

  /** The row under `key` in `table`, if stored. */
  get(table: MemoTable, key: string): { value: unknown } | undefined {
    const buffer = this.held();
    const row = buffer?.memo(table, key);
    if (row) return { value: JSON.parse(row.json) as unknown };
    if (buffer || !this.tables.has(table)) return undefined;
    const stored = this.sql
      .exec<{ value: string }>(`SELECT value FROM ${MEMO_TABLES[table]} WHERE key = ?`, key)
      .toArray()[0];
    return stored ? { value: JSON.parse(stored.value) as unknown } : undefined;
  }

  /** The last `limit` rows of `table`, in the order they were written. */
  latest(table: MemoTable, limit: number): { key: string; value: unknown }[] {
    const buffer = this.held();
    if (buffer) {
      const rows = [...(buffer.memos.get(table) ?? new Map<string, HeldRow>())].slice(-limit);
      return rows.map(([key, row]) => ({ key, value: JSON.parse(row.json) as unknown }));
    }
    if (!this.tables.has(table)) return [];
    return this.sql
      .exec<{ key: string; value: string }>(
        `SELECT key, value FROM ${MEMO_TABLES[table]} ORDER BY rowid DESC LIMIT ?`,
        limit,
      )
      .toArray()
      .reverse()
      .map((row) => ({ key: row.key, value: JSON.parse(row.value) as unknown }));
  }

  /** Every key of `table`, in the order they were written. */
  keys(table: MemoTable): string[] {
    const buffer = this.held();
    if (buffer) return [...(buffer.memos.get(table)?.keys() ?? [])];
    if (!this.tables.has(table)) return [];
    return this.sql
      .exec<{ key: string }>(`SELECT key FROM ${MEMO_TABLES[table]} ORDER BY rowid`)
      .toArray()
      .map((row) => row.key);
  }

  /** Stores a row once; returns false if it was already stored (a concurrent duplicate run). */
  put(table: MemoTable, key: string, value: unknown, at: number): boolean {
    const buffer = this.held();
    if (buffer) return buffer.putMemo(table, key, value, at);
    this.tables.ensure(table);
    return this.insert(table, key, { json: JSON.stringify(value ?? null), at });
  }

  /** Writes the rows a write buffer held (TaskStorage.persist). */
  writeHeld(memos: ReadonlyMap<MemoTable, ReadonlyMap<string, HeldRow>>): void {
    for (const [table, rows] of memos) {
      this.tables.ensure(table);
      for (const [key, row] of rows) this.insert(table, key, row);
    }
  }

  private insert(table: MemoTable, key: string, row: HeldRow): boolean {
    const cursor = this.sql.exec(
      `INSERT INTO ${MEMO_TABLES[table]} (key, value, at) VALUES (?, ?, ?) ON CONFLICT(key) DO NOTHING`,
      key,
      row.json,
      row.at,
    );
    return cursor.rowsWritten > 0;
  }
}
