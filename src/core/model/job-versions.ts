/**
 * Which version of its tool each of a task's runs ran (`defineTool({ version })`): a row per version,
 * the first run on it, written only when a version other than 1 ran. No row means version 1 ran from
 * the start: a tool that declares none, or a task started by a release before versions. Pure.
 */
import * as z from "zod";

export const VersionRowSchema = z.object({ run: z.number().int().positive() });

/** The version a task started on, and the one its runs ran before this one when this run is the first on another. */
export interface RunVersions {
  started: number;
  before?: number;
}

export interface VersionRow {
  version: number;
  run: number;
}

/** The version run 1 ran: its row's, else 1 (no row: version 1 from the start). */
const startedOf = (rows: readonly VersionRow[]): number => rows.find((row) => row.run === 1)?.version ?? 1;

/** The version the runs before `run` ran last: the row of the latest earlier run, else 1. */
function versionBefore(rows: readonly VersionRow[], run: number): number {
  const earlier = rows.filter((row) => row.run < run).sort((a, b) => b.run - a.run);
  return earlier[0]?.version ?? 1;
}

/**
 * What run `attempt` on version `current` records, given the stored rows. `journalEmpty`: nothing of
 * the task's earlier runs was stored, so this run starts it afresh (its first run left nothing).
 */
export function decideVersions(
  rows: readonly VersionRow[],
  current: number,
  attempt: number,
  journalEmpty: () => boolean,
): { versions: RunVersions; write?: VersionRow } {
  if (rows.some((row) => row.version === current) || (rows.length === 0 && current === 1)) {
    return { versions: { started: startedOf(rows) } };
  }
  const run = attempt <= 1 || (rows.length === 0 && journalEmpty()) ? 1 : attempt;
  const write = { version: current, run };
  const all = [...rows, write];
  const versions: RunVersions = { started: startedOf(all) };
  if (run > 1) versions.before = versionBefore(rows, run);
  return { versions, write };
}

/** What a reader of the task sees of its journal (the task document's `journal`): absent when there is nothing to say. */
export interface JournalView {
  /** The versions its runs ran, each with the first run on it (a version 1 never written is left out). */
  versions?: VersionRow[];
  /** The words the task was told when a run did not match what earlier runs recorded (src/jobs/journal-watch.ts). */
  mismatch?: string;
}

/** The note (memo table `notes`) a task keeps once it was told of a mismatch: `{ at, message }`. */
export const JOURNAL_MISMATCH_NOTE = "journal mismatch told";
export const MismatchNoteSchema = z.object({ at: z.number(), message: z.string() });
