/**
 * The JobContext a tool's `run` receives: progress, cancellation, logs,
 * memoized steps and durable sleep, and what `run` returns. This is the whole API tool authors touch.
 */
import type { LogLevel } from "../core/task-events";

export type { LogLevel };

export type ToolContent =
  | { type: "text"; text: string }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string; description?: string }
  | { type: string; [key: string]: unknown };

/** A tool's result: MCP's CallToolResult shape. A plain string becomes one text block. */
export interface ToolResult {
  content: ToolContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

export function toToolResult(value: ToolResult | string): ToolResult {
  return typeof value === "string" ? { content: [{ type: "text", text: value }] } : value;
}

export interface JobContext {
  /** The task this run belongs to. */
  readonly taskId: string;
  /** 1 on the first run; higher when the job is resumed after a sleep, a crash or a retry. */
  readonly attempt: number;
  /** Aborts when the task is cancelled (or the run must stop). Pass it to fetch() and timers. */
  readonly signal: AbortSignal;
  /**
   * Report progress. Values must increase; a repeat from a replayed run is dropped.
   * @example await job.progress(3, 10, "3 of 10 files")
   */
  progress(done: number, total?: number, message?: string): Promise<void>;
  /** Append a `log` event to the task's event log. */
  log(message: string, level?: LogLevel): Promise<void>;
  /**
   * Run `fn` once per task: its JSON result is stored, and a resumed or retried run
   * gets the stored result without running `fn` again.
   * @example const rows = await job.step("fetch rows", () => db.query(sql))
   */
  step<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
  /**
   * Wait durably. Short waits are timers; long ones (or ones past this run's time slice)
   * end the run and the task is woken later, resuming through its memoized steps.
   * Each call is remembered by its position, so a resumed run does not wait again.
   * @example await job.sleep(3600, "waiting for the export to finish")
   */
  sleep(seconds: number, reason?: string): Promise<void>;
  /** Like `sleep`, to an absolute time; not memoized (the target itself is stable). */
  sleepUntil(time: number | Date, reason?: string): Promise<void>;
}

/** Thrown by a tool to fail the task at once, without retries. */
export class PermanentError extends Error {
  override readonly name = "PermanentError";
}

/** Thrown inside `run` to end the run early; the runner reads the reason from the context, not the throw. */
export class JobYield extends Error {
  override readonly name = "JobYield";
  constructor(readonly wakeAt: number, readonly reason?: string) {
    super("The job yielded; it resumes later.");
  }
}

/** A timer that rejects when `signal` aborts. */
export function abortableDelay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, Math.max(0, ms));
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
