/**
 * One JSON line per task transition on the Worker's log, for `wrangler tail` and Workers Logs:
 * which task, which tool, the status and run phase it entered, and how long since it was created.
 * Never the arguments, the result or the status message (a failure's message may quote either).
 */
import { readSettings } from "../../config";
import type { TaskObserver } from "../ports";
import type { TaskEvent } from "../model/events";
import type { RunPhase, TaskRecord, TaskStatus } from "../model/record";

export interface TransitionLine {
  event: "task.transition";
  taskId: string;
  tool: string;
  status: TaskStatus;
  /** What the runner is doing: queued, running, sleeping, backoff (waiting to retry), waiting_input (for a person's answer) or done. */
  phase: RunPhase;
  /** Runs started so far (a resumed or retried run counts again). */
  runs: number;
  /** Milliseconds from the task's creation to this transition. */
  durationMs: number;
}

/**
 * The lines for one commit: one per `status` event (a commit holds at most one, and `record` is
 * the state it describes). Progress, step and log events are not transitions.
 */
export function transitionLines(record: TaskRecord, events: readonly TaskEvent[]): TransitionLine[] {
  return events
    .filter((event) => event.type === "status")
    .map((event) => ({
      event: "task.transition",
      taskId: record.taskId,
      tool: record.tool,
      status: record.status,
      phase: record.run.phase,
      runs: record.run.runs,
      durationMs: Math.max(0, event.at - record.createdAt),
    }));
}

/**
 * How lines reach the log: "lines", one console call per line (what Workers Logs indexes: a JSON
 * line per call); "batched", the lines of one moment in one call per level, joined by newlines, for
 * `wrangler dev` (npm run dev sets it): there every console call crosses wrangler's inspector, and
 * the terminal shows the same lines either way (docs/log-cost.md has what each call costs).
 */
export type TransitionLogMode = "lines" | "batched";

/** The console calls that print `lines` in `mode`: [level, text] in order. */
export function transitionLogCalls(
  lines: readonly TransitionLine[],
  mode: TransitionLogMode,
): ["info" | "warn", string][] {
  const level = (line: TransitionLine) => (line.status === "failed" ? "warn" : "info");
  if (mode === "lines") return lines.map((line) => [level(line), JSON.stringify(line)]);
  return (["info", "warn"] as const)
    .map((wanted): ["info" | "warn", string] => [
      wanted,
      lines
        .filter((line) => level(line) === wanted)
        .map((line) => JSON.stringify(line))
        .join("\n"),
    ])
    .filter(([, text]) => text !== "");
}

/** How long batched lines wait for others: a dev terminal shows them a tenth of a second late, and a run of quick calls shares one console call. */
export const BATCH_WINDOW_MS = 100;
/** A timer this much past its time is taken as lost (set from an object evicted before it fired) and set again. */
const LOST_TIMER_MS = 1000;

/** Keeps the lines built and not yet printed, in order, and prints them on a timer, after the answer of the call that made them. */
export class TransitionPrinter {
  private readonly unprinted: TransitionLine[] = [];
  /** When the pending timer should fire; undefined when none is pending. */
  private dueAt: number | undefined;

  constructor(
    private readonly print: (level: "info" | "warn", text: string) => void,
    private readonly schedule: (print: () => void, delayMs: number) => void,
  ) {}

  add(lines: readonly TransitionLine[], mode: TransitionLogMode, now: number): void {
    if (lines.length === 0) return;
    this.unprinted.push(...lines);
    if (this.dueAt !== undefined && now <= this.dueAt + LOST_TIMER_MS) return;
    const delayMs = mode === "batched" ? BATCH_WINDOW_MS : 0;
    this.dueAt = now + delayMs;
    this.schedule(() => this.flush(mode), delayMs);
  }

  flush(mode: TransitionLogMode): void {
    this.dueAt = undefined;
    for (const [level, text] of transitionLogCalls(this.unprinted.splice(0), mode)) this.print(level, text);
  }
}

const printer = new TransitionPrinter(
  (level, text) => (level === "warn" ? console.warn(text) : console.info(text)),
  (print, delayMs) => void setTimeout(print, delayMs),
);

/**
 * Workers Logs indexes the fields of a JSON line. Level info (a failed task: warn), so `wrangler dev
 * --log-level info` shows it too. The lines are printed on a timer, after the answer of the call that
 * made them: under `wrangler dev` every console call is sent to its inspector and costs 1-2.5 ms of
 * the runtime's thread (docs/log-cost.md), which a call that ends at once should not wait for.
 */
export const transitionLogObserver: TaskObserver = async ({ env, record, events }) => {
  printer.add(transitionLines(record, events), readSettings(env).transitionLog, Date.now());
};
