/**
 * A task's fan-outs in its own SQLite: one row per fan-out, one small row per item (updated often:
 * claims, leases, sends), and its input and result in tables of their own, written once each, so
 * updating an item never rewrites them. The tables are made by the first fan-out. Two partial
 * indexes keep the frequent reads off a full scan: unfinished items by due time (the alarm's
 * redelivery check) and running items by fan-out (counted at every claim and result).
 */
import { newItem, type FanOutItem, type FanOutItemState } from "./items";

export interface FanOutHeader {
  /** Named by its place in the job (like a sleep), so a replayed run finds the same fan-out. */
  key: string;
  step: string;
  total: number;
  done: number;
  failed: number;
  settle: boolean;
  /** The task's progress when the fan-out began; undefined when the tool reports its own progress. */
  progressBase?: number;
  /** A failed item ended it (without settle), or the job stopped waiting: its leftovers are not run. */
  abandoned: boolean;
}

export interface StoredItem {
  key: string;
  item: FanOutItem;
}

export interface ItemResult {
  index: number;
  state: FanOutItemState;
  /** The result's JSON text, for a done item. */
  value?: string;
  error?: string;
  attempts: number;
}

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS fan_outs (key TEXT PRIMARY KEY, step TEXT NOT NULL, total INTEGER NOT NULL, done INTEGER NOT NULL,
    failed INTEGER NOT NULL, settle INTEGER NOT NULL, progress_base REAL, abandoned INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS fan_out_items (key TEXT NOT NULL, idx INTEGER NOT NULL, state TEXT NOT NULL, claims INTEGER NOT NULL,
    failures INTEGER NOT NULL, lost INTEGER NOT NULL, sends INTEGER NOT NULL, due_at INTEGER NOT NULL, error TEXT, PRIMARY KEY (key, idx));
  CREATE INDEX IF NOT EXISTS fan_out_items_due ON fan_out_items (due_at) WHERE state IN ('pending', 'running');
  CREATE INDEX IF NOT EXISTS fan_out_items_running ON fan_out_items (key) WHERE state = 'running';
  CREATE TABLE IF NOT EXISTS fan_out_inputs (key TEXT NOT NULL, idx INTEGER NOT NULL, input TEXT NOT NULL, PRIMARY KEY (key, idx));
  CREATE TABLE IF NOT EXISTS fan_out_results (key TEXT NOT NULL, idx INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (key, idx));
`;

type HeaderRow = {
  key: string;
  step: string;
  total: number;
  done: number;
  failed: number;
  settle: number;
  progress_base: number | null;
  abandoned: number;
};
type ItemRow = {
  key: string;
  idx: number;
  state: string;
  claims: number;
  failures: number;
  lost: number;
  sends: number;
  due_at: number;
  error: string | null;
};

const STATES: readonly string[] = ["pending", "running", "done", "failed"] satisfies FanOutItemState[];
const isState = (value: string): value is FanOutItemState => STATES.includes(value);

function toItem(row: ItemRow): FanOutItem {
  return {
    index: row.idx,
    // Only this module writes the column; anything else would be a corrupt row, treated as lost.
    state: isState(row.state) ? row.state : "pending",
    claims: row.claims,
    failures: row.failures,
    lost: row.lost,
    sends: row.sends,
    dueAt: row.due_at,
    ...(row.error !== null && { error: row.error }),
  };
}

function toHeader(row: HeaderRow): FanOutHeader {
  return {
    key: row.key,
    step: row.step,
    total: row.total,
    done: row.done,
    failed: row.failed,
    settle: row.settle === 1,
    ...(row.progress_base !== null && { progressBase: row.progress_base }),
    abandoned: row.abandoned === 1,
  };
}

export class FanOutStorage {
  private exists: boolean | undefined;

  constructor(private readonly sql: SqlStorage) {}

  /** The database was wiped (the task expired or an unused id was discarded). */
  reset(): void {
    this.exists = undefined;
  }

  private ready(): boolean {
    this.exists ??=
      this.sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'fan_outs'").toArray().length > 0;
    return this.exists;
  }

  header(key: string): FanOutHeader | undefined {
    if (!this.ready()) return undefined;
    const row = this.sql.exec<HeaderRow>("SELECT * FROM fan_outs WHERE key = ?", key).toArray()[0];
    return row && toHeader(row);
  }

  /** Stores a new fan-out with its items, all pending and due at once. */
  create(header: FanOutHeader, inputs: readonly string[]): void {
    if (!this.ready()) {
      this.sql.exec(SCHEMA);
      this.exists = true;
    }
    this.saveHeader(header);
    inputs.forEach((input, idx) => {
      const item = newItem(idx);
      this.sql.exec(
        "INSERT INTO fan_out_items (key, idx, state, claims, failures, lost, sends, due_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        header.key,
        idx,
        item.state,
        item.claims,
        item.failures,
        item.lost,
        item.sends,
        item.dueAt,
      );
      this.sql.exec("INSERT INTO fan_out_inputs (key, idx, input) VALUES (?, ?, ?)", header.key, idx, input);
    });
  }

  saveHeader(h: FanOutHeader): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO fan_outs (key, step, total, done, failed, settle, progress_base, abandoned) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      h.key,
      h.step,
      h.total,
      h.done,
      h.failed,
      h.settle ? 1 : 0,
      h.progressBase ?? null,
      h.abandoned ? 1 : 0,
    );
  }

  item(key: string, index: number): FanOutItem | undefined {
    if (!this.ready()) return undefined;
    const row = this.sql
      .exec<ItemRow>("SELECT * FROM fan_out_items WHERE key = ? AND idx = ?", key, index)
      .toArray()[0];
    return row && toItem(row);
  }

  saveItem(key: string, item: FanOutItem): void {
    this.sql.exec(
      "UPDATE fan_out_items SET state = ?, claims = ?, failures = ?, lost = ?, sends = ?, due_at = ?, error = ? WHERE key = ? AND idx = ?",
      item.state,
      item.claims,
      item.failures,
      item.lost,
      item.sends,
      item.dueAt,
      item.error ?? null,
      key,
      item.index,
    );
  }

  input(key: string, index: number): string | undefined {
    return this.sql
      .exec<{ input: string }>("SELECT input FROM fan_out_inputs WHERE key = ? AND idx = ?", key, index)
      .toArray()[0]?.input;
  }

  saveResult(key: string, index: number, value: string): void {
    this.sql.exec("INSERT OR IGNORE INTO fan_out_results (key, idx, value) VALUES (?, ?, ?)", key, index, value);
  }

  /** Every item's outcome, in input order. */
  results(key: string): ItemResult[] {
    if (!this.ready()) return [];
    const rows = this.sql.exec<{
      idx: number;
      state: string;
      error: string | null;
      claims: number;
      value: string | null;
    }>(
      "SELECT i.idx, i.state, i.error, i.claims, r.value FROM fan_out_items i LEFT JOIN fan_out_results r ON r.key = i.key AND r.idx = i.idx WHERE i.key = ? ORDER BY i.idx",
      key,
    );
    return [...rows].map((row) => ({
      index: row.idx,
      state: isState(row.state) ? row.state : "pending",
      attempts: row.claims,
      ...(row.value !== null && { value: row.value }),
      ...(row.error !== null && { error: row.error }),
    }));
  }

  runningCount(key: string): number {
    return this.sql
      .exec<{ n: number }>("SELECT COUNT(*) AS n FROM fan_out_items WHERE key = ? AND state = 'running'", key)
      .one().n;
  }

  /** Unfinished items whose due time has passed, in fan-outs still awaited, oldest first. */
  due(now: number, limit: number): StoredItem[] {
    if (!this.ready()) return [];
    const rows = this.sql.exec<ItemRow>(
      `SELECT i.* FROM fan_out_items i JOIN fan_outs f ON f.key = i.key
       WHERE i.state IN ('pending', 'running') AND i.due_at <= ? AND f.abandoned = 0 ORDER BY i.due_at LIMIT ?`,
      now,
      limit,
    );
    return [...rows].map((row) => ({ key: row.key, item: toItem(row) }));
  }

  /** The earliest due time among unfinished items of fan-outs still awaited. */
  nextDueAt(): number | undefined {
    if (!this.ready()) return undefined;
    const row = this.sql
      .exec<{ at: number | null }>(
        "SELECT MIN(i.due_at) AS at FROM fan_out_items i JOIN fan_outs f ON f.key = i.key WHERE i.state IN ('pending', 'running') AND f.abandoned = 0",
      )
      .one();
    return row.at ?? undefined;
  }

  /** Whether some fan-out the job may still wait for has items to come. */
  anyUnfinished(): boolean {
    if (!this.ready()) return false;
    return (
      this.sql.exec("SELECT 1 FROM fan_outs WHERE abandoned = 0 AND done + failed < total LIMIT 1").toArray().length > 0
    );
  }
}
