/**
 * What a task's job recorded, as a run under new code compares it with what it asks for
 * (src/jobs/journal-watch.ts), and the versions of its tool its runs ran (model/job-versions.ts).
 */
import { decideVersions, VersionRowSchema, type RunVersions, type VersionRow } from "../model/job-versions";
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

/** Records that run `attempt` runs `version` of its tool; answers the version the task started on. */
export function recordRunVersion(storage: TaskStorage, version: number, attempt: number): RunVersions {
  const rows = storage.memos.keys("versions").flatMap((key): VersionRow[] => {
    const row = VersionRowSchema.safeParse(storage.memos.get("versions", key)?.value);
    return row.success ? [{ version: Number(key), run: row.data.run }] : [];
  });
  const { versions, write } = decideVersions(rows, version, attempt, () => journalNames(storage).length === 0);
  if (write) storage.memos.put("versions", String(write.version), { run: write.run }, Date.now());
  return versions;
}
