/**
 * A task's partial output as stored (schema.ts, `pieces`): one row per piece, numbered from 1,
 * each written once (partial-pieces.ts decides what to write). A new task's pieces are held in its
 * write buffer (write-buffer.ts) until TaskStorage.persist() writes them.
 */
import type { TaskTables } from "./task-tables";
import type { HeldRow, TaskWriteBuffer } from "./write-buffer";

export class PieceRows {
  /** `held` is the new task's write buffer while its writes stay in memory (TaskStorage.defer). */
  constructor(
    private readonly sql: SqlStorage,
    private readonly tables: TaskTables,
    private readonly held: () => TaskWriteBuffer | undefined,
  ) {}

  /** Pieces numbered after `after`, in order, at most `limit` of them. */
  after(after: number, limit: number): { n: number; content: unknown }[] {
    const buffer = this.held();
    if (buffer)
      return [...buffer.pieces]
        .filter(([n]) => n > after)
        .sort(([a], [b]) => a - b)
        .slice(0, limit)
        .map(([n, row]) => ({ n, content: JSON.parse(row.json) as unknown }));
    if (!this.tables.has("pieces")) return [];
    return this.sql
      .exec<{ n: number; content: string }>(
        "SELECT n, content FROM pieces WHERE n > ? ORDER BY n LIMIT ?",
        after,
        limit,
      )
      .toArray()
      .map((row) => ({ n: row.n, content: JSON.parse(row.content) as unknown }));
  }

  /** Stores piece `n` once (a replayed publish's repeat writes nothing). */
  put(n: number, content: unknown, at: number): void {
    const row = { json: JSON.stringify(content), at };
    const buffer = this.held();
    if (buffer) {
      buffer.pieces.set(n, row);
      return;
    }
    this.tables.ensure("pieces");
    this.insert(n, row);
  }

  /** Writes the pieces a write buffer held (TaskStorage.persist). */
  writeHeld(pieces: ReadonlyMap<number, HeldRow>): void {
    if (pieces.size > 0) this.tables.ensure("pieces");
    for (const [n, row] of pieces) this.insert(n, row);
  }

  private insert(n: number, row: HeldRow): void {
    this.sql.exec(
      "INSERT INTO pieces (n, content, at) VALUES (?, ?, ?) ON CONFLICT(n) DO NOTHING",
      n,
      row.json,
      row.at,
    );
  }
}
