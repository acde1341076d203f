/**
 * Tells a run whose code changed under its task (docs/writing-tools.md, "Changing a tool with tasks
 * in flight"): the run asked for durable operations its task never recorded while operations an
 * earlier run recorded went unused. Said once per task, in words, as a log entry of the task.
 */
import { JOURNAL_MISMATCH_NOTE, type JobHost, type JournalKind, type JournalName } from "../core";
import { errorMessage } from "./errors";

/** What a run may ask for durably: the journal's kinds, and sleeps and publishes (named by their arguments). */
export type AskedKind = JournalKind | "sleep" | "publish";

/** The note that says a named operation ran inside a step's body (a replay that finds the step stored never asks for it). */
const nestedNote = (kind: JournalKind, key: string): string => `nested ${kind}\u0000${key}`;

/** How many names of each side the words list; the rest are counted. */
const NAMES_SHOWN = 3;

export class JournalWatch {
  private readonly asked = new Set<string>();
  private readonly fresh: { kind: AskedKind; key: string }[] = [];

  constructor(private readonly host: JobHost) {}

  /**
   * The run asked for `kind` `key`; `found`: the task had it recorded. `inStep`: the step whose body
   * asked, if any (noted once, when first recorded, so a replay that skips that body does not miss it).
   */
  saw(kind: AskedKind, key: string, found: boolean, inStep?: string): void {
    // A run with no journal (an inline call's) has nothing to compare.
    if (!this.host.journal) return;
    this.asked.add(`${kind}\u0000${key}`);
    // An answer is stored by whoever answered, not by the run: it is noted when the run first uses it.
    const recording = !found || kind === "answer";
    if (recording && inStep !== undefined && inStep !== "" && kind !== "sleep" && kind !== "publish")
      this.host.saveNote(nestedNote(kind, key), inStep);
    if (!found) this.fresh.push({ kind, key });
  }

  /** Recorded operations this run never asked for, and the fresh ones it did, when both exist. */
  private mismatch(): { fresh: { kind: AskedKind; key: string }[]; unused: JournalName[] } | undefined {
    if (this.fresh.length === 0 || !this.host.journal) return undefined;
    const unused = this.host
      .journal()
      .filter(
        ({ kind, key }) =>
          !this.asked.has(`${kind}\u0000${key}`) && this.host.loadNote(nestedNote(kind, key)) === undefined,
      );
    return unused.length > 0 ? { fresh: this.fresh, unused } : undefined;
  }

  /**
   * At the end of a run: logs the mismatch, if any, unless the task was told before. Never throws.
   * `versions`: the version the task started on and this run's, for the words.
   */
  async report(versions: { started: number; current: number }): Promise<void> {
    const { host } = this;
    try {
      if (host.legacyNames === true || this.fresh.length === 0 || host.loadNote(JOURNAL_MISMATCH_NOTE) !== undefined)
        return;
      if (this.mismatch() === undefined) return;
      // Concurrent branches of the job may still be replaying what they recorded (each lookup is synchronous): let them.
      await new Promise((resolve) => setTimeout(resolve, 0));
      const found = this.mismatch();
      if (found === undefined) return;
      const message = mismatchWords(found.fresh, found.unused, versions);
      host.saveNote(JOURNAL_MISMATCH_NOTE, { at: Date.now(), message });
      host.log("warning", message);
    } catch (error) {
      console.warn(`mcp-task-worker: the journal check of task ${host.taskId} failed: ${errorMessage(error)}`);
    }
  }
}

const describe = (kind: AskedKind, key: string): string =>
  kind === "step"
    ? `step "${key}"`
    : kind === "answer"
      ? `question "${key}"`
      : kind === "callback"
        ? `callback "${key}"`
        : `a ${kind}`;

function listed(items: readonly { kind: AskedKind; key: string }[]): string {
  const shown = [...new Set(items.slice(0, NAMES_SHOWN).map(({ kind, key }) => describe(kind, key)))].join(", ");
  return items.length > NAMES_SHOWN ? `${shown} and ${items.length - NAMES_SHOWN} more` : shown;
}

/** The log entry's words: what was asked, what went unused, and what to do. */
export function mismatchWords(
  fresh: readonly { kind: AskedKind; key: string }[],
  unused: readonly JournalName[],
  { started, current }: { started: number; current: number },
): string {
  const version =
    started === current
      ? `it started on version ${current}, as this run`
      : `it started on version ${started}; this run is version ${current}`;
  return (
    `This task's journal does not match its tool's code: this run asked for ${listed(fresh)}, never recorded, ` +
    `while ${listed(unused)}, recorded by an earlier run, went unused (${version}). The tool changed under the task: ` +
    "what the earlier runs did is not replayed, and what replaces it runs now. Give the tool a higher version and " +
    'branch on job.version so tasks in flight finish on the path they began (docs/writing-tools.md, "Changing a tool with tasks in flight").'
  );
}
