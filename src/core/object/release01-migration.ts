/**
 * The one-time move of a release 0.1 database to this schema (schema.ts; docs/api.md, "Storage
 * across versions"): 0.1 kept every memoized row in one `steps` table, told apart by prefixes.
 */
import { CREATE, MEMO_TABLES, SCHEMA_VERSION, type JobTable } from "./schema";

/** Release 0.1's database: its `steps` table is there (this release never creates one). */
export const isRelease01 = (tables: ReadonlySet<string>): boolean => tables.has("task") && tables.has("steps");

/** The tables release 0.1's `steps` table is split into. */
const SPLIT_INTO: readonly JobTable[] = ["steps", "sleeps", "answers", "notes", "publishes", "pieces"];

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
 * version columns added (first_schema 1 on a task 0.1 wrote: it may hold 0.1's durable names),
 * `steps` dropped.
 * Runs inside one transaction (the caller's `transact`), so a crash leaves 0.1's tables or these,
 * and a second run finds no `steps` table: it runs once per object.
 */
export function migrateRelease01(sql: SqlStorage): void {
  for (const table of SPLIT_INTO) sql.exec(CREATE[table]);
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
  // The columns as a new database has them; only a task 0.1 already wrote is marked 1. An object 0.1
  // prepared for its pool of ids holds no row: the task this release creates there is of this schema.
  sql.exec(`ALTER TABLE task ADD COLUMN schema INTEGER NOT NULL DEFAULT ${SCHEMA_VERSION}`);
  sql.exec(`ALTER TABLE task ADD COLUMN first_schema INTEGER NOT NULL DEFAULT ${SCHEMA_VERSION}`);
  sql.exec("UPDATE task SET first_schema = 1");
  sql.exec("DROP TABLE steps");
}
