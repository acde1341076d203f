/**
 * What a task's job recorded, as a run under new code compares it with what it asks for
 * (src/jobs/journal-watch.ts), and the versions of its tool its runs ran (model/job-versions.ts).
 */
import {
  decideVersions,
  JOURNAL_MISMATCH_NOTE,
  MismatchNoteSchema,
  VersionRowSchema,
  type JournalView,
  type RunVersions,
  type VersionRow,
} from "../model/job-versions";
import type { JournalKind, JournalName } from "../ports";
import type { MemoTable } from "./schema";
import type { TaskStorage } from "./storage";

/**
 * The memo tables holding what a job's author named (its sleeps and publishes are named by where they
 * run and what they hold, so a changed one is a new name, not a lost one), by the kind of operation.
 */
const JOURNAL_TABLES: readonly (readonly [JournalKind, MemoTable])[] = [
  ["step", "steps"],
  ["answer", "answers"],
  ["callback", "callbacks"],
];

/** Every durable operation the task's job recorded, by kind and durable name. */
export function journalNames(storage: TaskStorage): JournalName[] {
  return JOURNAL_TABLES.flatMap(([kind, table]) => storage.memos.keys(table).map((key) => ({ kind, key })));
}

/** The versions the task's runs ran, as stored (none: version 1 throughout). */
function versionRows(storage: TaskStorage): VersionRow[] {
  return storage.memos.keys("versions").flatMap((key): VersionRow[] => {
    const row = VersionRowSchema.safeParse(storage.memos.get("versions", key)?.value);
    return row.success ? [{ version: Number(key), run: row.data.run }] : [];
  });
}

/** What the task document shows of the journal: the versions run, and the mismatch the task was told of. */
export function journalView(storage: TaskStorage): JournalView | undefined {
  const versions = versionRows(storage).sort((a, b) => a.run - b.run);
  const told = MismatchNoteSchema.safeParse(storage.memos.get("notes", JOURNAL_MISMATCH_NOTE)?.value);
  if (versions.length === 0 && !told.success) return undefined;
  return { ...(versions.length > 0 && { versions }), ...(told.success && { mismatch: told.data.message }) };
}

/** Records that run `attempt` runs `version` of its tool; answers the version the task started on. */
export function recordRunVersion(storage: TaskStorage, version: number, attempt: number): RunVersions {
  const rows = versionRows(storage);
  const { versions, write } = decideVersions(rows, version, attempt, () => journalNames(storage).length === 0);
  if (write) storage.memos.put("versions", String(write.version), { run: write.run }, Date.now());
  return versions;
}
