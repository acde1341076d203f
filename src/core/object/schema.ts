/**
 * The TaskObject's tables, each stored concept in a home of its own (docs/api.md, "Storage across
 * versions"; release 0.1's one `steps` table is moved here by release01-migration.ts). Every new
 * database is written at SCHEMA_VERSION; the version is a column of the task row, read with the record.
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
  /** What an engine keeps about its run: a Workflow's, and which step's body a job's nested operations ran in. */
  notes: "notes",
  /** A publish's durable name → the pieces it recorded ({ first, count }), so a replay records nothing. */
  publishes: "publishes",
  /** A step's attempts by `step\u0000n` (and `…\u0000end`): the journal of steps given options (model/step-attempts.ts). */
  attempts: "step_attempts",
  /** A job's callbacks by name: their token and expiry (model/callbacks.ts). */
  callbacks: "callbacks",
  /** What arrived at a callback, by its name: stored once, so a callback is used once. */
  callbackBodies: "callback_bodies",
  /** The tool's versions the task's runs ran, by version: the first run on each (model/job-versions.ts). */
  versions: "tool_versions",
} as const;
export type MemoTable = keyof typeof MEMO_TABLES;

/**
 * The tables a job writes beside its record: each created by its first write (task-tables.ts),
 * never ahead. Made ahead by a pooled object, a job's six tables tripled an idle object's database
 * and wrote 17 more rows per task, mostly for tables the task never wrote (issue 54; docs/core.md,
 * "How the creation path is kept short").
 */
export type JobTable = MemoTable | "pieces";

/** Every table is created when first written: a task that never sleeps parses no `sleeps` table. */
export const CREATE: Readonly<Record<JobTable | "task" | "events", string>> = {
  task: `CREATE TABLE IF NOT EXISTS task (id INTEGER PRIMARY KEY CHECK (id = 1), record TEXT NOT NULL,
    schema INTEGER NOT NULL DEFAULT ${SCHEMA_VERSION}, first_schema INTEGER NOT NULL DEFAULT ${SCHEMA_VERSION})`,
  events:
    "CREATE TABLE IF NOT EXISTS events (seq INTEGER PRIMARY KEY, type TEXT NOT NULL, data TEXT NOT NULL, at INTEGER NOT NULL)",
  steps: memoTable(MEMO_TABLES.steps),
  sleeps: memoTable(MEMO_TABLES.sleeps),
  answers: memoTable(MEMO_TABLES.answers),
  notes: memoTable(MEMO_TABLES.notes),
  publishes: memoTable(MEMO_TABLES.publishes),
  attempts: memoTable(MEMO_TABLES.attempts),
  callbacks: memoTable(MEMO_TABLES.callbacks),
  callbackBodies: memoTable(MEMO_TABLES.callbackBodies),
  versions: memoTable(MEMO_TABLES.versions),
  /** The task's partial output, numbered from 1 (model/partial.ts). */
  pieces: "CREATE TABLE IF NOT EXISTS pieces (n INTEGER PRIMARY KEY, content TEXT NOT NULL, at INTEGER NOT NULL)",
};

function memoTable(name: string): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (key TEXT PRIMARY KEY, value TEXT NOT NULL, at INTEGER NOT NULL)`;
}
