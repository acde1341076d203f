/**
 * Reports from an engine that runs a task's job outside its TaskObject (a Cloudflare Workflow,
 * src/workflows/): progress, a log line, a finished step, a note left for the job's next run (a
 * question the engine asks, its output), and a wake-up so that run starts now instead of at its
 * next check. The task stays the source of truth: a report to a task that ended changes nothing and
 * says so, so the engine can stop. Every part is idempotent (progress must increase, a step and a
 * note are kept once), so an engine that repeats a report after a crash counts nothing twice.
 */
import * as z from "zod";
import { recordProgress, type Transition } from "../model/machine";
import type { NewTaskEvent } from "../model/events";
import { isTerminal, type TaskRecord } from "../model/record";
import type { TaskStorage } from "./storage";
import { statusEvent } from "../model/transition";
import { parseBlocks, type PartialLimits } from "../model/partial";
import { publishPieces } from "./partial-pieces";

const Name = z.string().min(1).max(200);
export const EngineReportSchema = z
  .object({
    progress: z
      .object({ progress: z.number(), total: z.number().optional(), message: z.string().max(2000).optional() })
      .optional(),
    log: z.object({ level: z.enum(["debug", "info", "notice", "warning", "error"]), message: z.string() }).optional(),
    /** A step of the engine finished: a `step` event, the first time only. */
    step: Name.optional(),
    /** Kept once under `name` beside the job's steps (`note:<name>`), where the job's next run reads it. */
    note: z.object({ name: Name, value: z.unknown() }).optional(),
    /** Partial output, recorded once per key (partial-pieces.ts): a replayed report records nothing again. */
    publish: z.object({ key: Name, content: z.unknown() }).optional(),
    /** Start the job's next run now (it sleeps until its next check otherwise). */
    wake: z.boolean().optional(),
  })
  .strict();
export type EngineReport = z.infer<typeof EngineReportSchema>;

/** "live": taken; "ended": the task is terminal (the engine should stop); "gone": no such task (expired). */
export type ReportReply = { state: "live"; expiresAt: number; refused?: string } | { state: "ended" | "gone" };

export interface ReportDeps {
  storage: TaskStorage;
  limits: PartialLimits;
  commit(before: TaskRecord, transition: Transition): Promise<void>;
  append(events: NewTaskEvent[]): void;
  /** The alarm, moved to now: a wake does not change the run's phase, so a commit does not move it. */
  wakeNow(): Promise<void>;
}

/**
 * A sleeping (or backing-off) run becomes due now. A task waiting for an answer works again, due
 * now, its question still unanswered: the engine went on without it (answered outside MCP), and its
 * next run reads what it reported, asking again if it still waits. A running run reads the note itself.
 */
export function wakeRun(record: TaskRecord, now: number): Transition {
  const { phase, wakeAt } = record.run;
  if (phase === "waiting_input") {
    const next: TaskRecord = {
      ...record,
      status: "working",
      statusMessage: "Resuming.",
      lastUpdatedAt: now,
      run: { ...record.run, phase: "sleeping", wakeAt: now },
    };
    return { record: next, events: [statusEvent(next)] };
  }
  if ((phase !== "sleeping" && phase !== "backoff") || (wakeAt !== undefined && wakeAt <= now))
    return { record, events: [] };
  return { record: { ...record, run: { ...record.run, wakeAt: now } }, events: [] };
}

export async function applyReport(
  record: TaskRecord | undefined,
  raw: unknown,
  deps: ReportDeps,
): Promise<ReportReply> {
  if (!record) return { state: "gone" };
  if (isTerminal(record.status)) return { state: "ended" };
  const report = EngineReportSchema.parse(raw);
  const now = Date.now();
  const { storage } = deps;
  if (report.note) storage.memos.put("notes", report.note.name, report.note.value, now);
  if (report.step !== undefined && storage.memos.put("steps", report.step, null, now))
    deps.append([{ type: "step", data: { name: report.step } }]);
  if (report.log)
    deps.append([{ type: "log", data: { level: report.log.level, message: report.log.message.slice(0, 2000) } }]);
  let refused: string | undefined;
  if (report.publish) {
    const parsed = parseBlocks(report.publish.content);
    if (!parsed.ok) refused = parsed.message;
    else {
      const outcome = publishPieces(deps, `engine:${report.publish.key}`, parsed.blocks, now);
      if (outcome.kind === "refused") refused = outcome.message;
    }
  }
  if (report.progress) {
    const current = storage.load() ?? record;
    await deps.commit(current, recordProgress(current, report.progress, now));
  }
  if (report.wake) {
    const current = storage.load() ?? record;
    const woken = wakeRun(current, now);
    if (woken.record !== current) {
      await deps.commit(current, woken);
      await deps.wakeNow();
    }
  }
  return { state: "live", expiresAt: record.expiresAt, ...(refused !== undefined && { refused }) };
}
