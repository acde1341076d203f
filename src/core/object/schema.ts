/**
 * The TaskObject's tables, each stored concept in a home of its own, and the migration from the
 * one `steps` table of release 0.1 (docs/api.md, "Storage across versions"). Every new database
 * is written at SCHEMA_VERSION; the version is a column of the task row, read with the record.
 */

/** The schema this release writes. 1: release 0.1 (no column; one `steps` table told apart by prefixes). */
export const SCHEMA_VERSION = 2;

/** Tables of one key and one JSON value each: what a job or an engine memoizes. */
export const MEMO_TABLES = {
  /** A job's step results by step name (a Workflow's finished steps too, with null). */
  steps: "step_results",
  /** A durable sleep's wake-up time by the sleep's durable name (src/jobs/durable-names.ts). */
  sleeps: "sleeps",
  /** A question's answer by the question's key. */
  answers: "answers",
  /** What an engine outside the object (a Workflow) keeps about its run. */
  notes: "notes",
  /** A publish's durable name → the pieces it recorded ({ first, count }), so a replay records nothing. */
  publishes: "publishes",
} as const;
export type MemoTable = keyof typeof MEMO_TABLES;
export const MEMO_KINDS: readonly MemoTable[] = ["steps", "sleeps", "answers", "notes", "publishes"];

/** Every table is created when first written: a task that never sleeps parses no `sleeps` table. */
export const CREATE: Readonly<Record<MemoTable | "pieces" | "task" | "events", string>> = {
  task: `CREATE TABLE IF NOT EXISTS task (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL,
    schema INTEGER NOT NULL DEFAULT ${SCHEMA_VERSION}, first_schema INTEGER NOT NULL DEFAULT ${SCHEMA_VERSION})`,
  events:
    "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, data TEXT NOT NULL, at INTEGER NOT NULL)",
  steps: memoTable(MEMO_TABLES.steps),
  sleeps: memoTable(MEMO_TABLES.sleeps),
  answers: memoTable(MEMO_TABLES.answers),
  notes: memoTable(MEMO_TABLES.notes),
  publishes: memoTable(MEMO_TABLES.publishes),
  /** The task's partial output, numbered from 1 (model/partial.ts). */
  pieces: "CREATE TABLE IF NOT EXISTS pieces (n INTEGER PRIMARY KEY, content TEXT NOT NULL, at INTEGER NOT NULL)",
};

function memoTable(name: string): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (key TEXT PRIMARY KEY, value TEXT NOT NULL, at INTEGER NOT NULL)`;
}

/** Release 0.1's database: its `steps` table is there (this release never creates one). */
export const isRelease01 = (tables: ReadonlySet<string>): boolean => tables.has("task") && tables.has("steps");

/** Release 0.1's row prefixes, each to its table; a row of any other name is kept whole as a note. */
const MOVES: readonly { prefix: string; to: string; key?: "whole" }[] = [
  { prefix: "step:", to: MEMO_TABLES.steps },
  { prefix: "sleep:", to: MEMO_TABLES.sleeps },
  { prefix: "input:", to: MEMO_TABLES.answers },
  { prefix: "note:", to: MEMO_TABLES.notes },
  { prefix: "publish:", to: MEMO_TABLES.publishes },
];

/**
 * Moves a release 0.1 database to this schema: each row of `steps` to its concept's table, the
 * version columns added (first_schema 1: the task may hold 0.1's durable names), `steps` dropped.
 * Runs inside one transaction (the caller's `transact`), so a crash leaves 0.1's tables or these,
 * and a second run finds no `steps` table: it runs once per object.
 */
export function migrateRelease01(sql: SqlStorage): void {
  for (const table of [...MEMO_KINDS, "pieces" as const]) sql.exec(CREATE[table]);
  for (const { prefix, to } of MOVES) {
    sql.exec(
      `INSERT OR IGNORE INTO ${to} (key, value, at) SELECT substr(name, ?), value, at FROM steps WHERE substr(name, 1, ?) = ?`,
      prefix.length + 1,
      prefix.length,
      prefix,
    );
  }
  // Pieces were `piece:000001`: zero-padded numbers.
  sql.exec(
    "INSERT OR IGNORE INTO pieces (n, content, at) SELECT CAST(substr(name, 7) AS INTEGER), value, at FROM steps WHERE substr(name, 1, 6) = 'piece:'",
  );
  const known = [...MOVES.map((m) => m.prefix), "piece:"];
  sql.exec(
    `INSERT OR IGNORE INTO ${MEMO_TABLES.notes} (key, value, at) SELECT name, value, at FROM steps WHERE ${known
      .map(() => "substr(name, 1, ?) <> ?")
      .join(" AND ")}`,
    ...known.flatMap((prefix) => [prefix.length, prefix]),
  );
  sql.exec(`ALTER TABLE task ADD COLUMN schema INTEGER NOT NULL DEFAULT ${SCHEMA_VERSION}`);
  sql.exec("ALTER TABLE task ADD COLUMN first_schema INTEGER NOT NULL DEFAULT 1");
  sql.exec("DROP TABLE steps");
}
