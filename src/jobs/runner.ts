/**
 * Runs one slice of a job: builds the JobContext over a JobHost (the TaskObject's
 * storage and event log), calls the tool, and reports how the run ended.
 * It never writes task state itself; the TaskObject applies the outcome through the state machine.
 */
import { findTool } from "../tools/registry";
import { toToolResult, type ToolResult } from "../tools/define";
import { PermanentError, type LogLevel } from "./context";
import { createJobContext, type YieldState } from "./job-context";

export { YIELD_THRESHOLD_MS } from "./job-context";

/** What the runner needs from whoever holds the task (the TaskObject, or an in-memory host for inline calls). */
export interface JobHost {
  readonly taskId: string;
  readonly attempt: number;
  readonly signal: AbortSignal;
  /** After this instant a run yields at its next sleep instead of waiting. */
  readonly sliceDeadline: number;
  progress(progress: number, total?: number, message?: string): void;
  log(level: LogLevel, message: string): void;
  loadStep(name: string): { value: unknown } | undefined;
  /** Store a step result; emits the `step` event the first time only. */
  saveStep(name: string, value: unknown): void;
  /** The job is about to wait (a sleep): deliver the events it has reported so far now. */
  flush?(): void;
}

export type RunOutcome =
  | { kind: "completed"; result: ToolResult }
  | { kind: "yielded"; wakeAt: number; reason?: string }
  | { kind: "failed"; message: string; permanent: boolean }
  | { kind: "aborted" };

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Errors a retry cannot fix: the tool said so, or its input does not parse. */
const isPermanent = (error: unknown): boolean => error instanceof PermanentError || (error instanceof Error && (error.name === "PermanentError" || error.name === "ZodError"));

/** Run `toolName` on `args` for one slice. Never throws. */
export async function runJob(toolName: string, args: unknown, host: JobHost): Promise<RunOutcome> {
  const tool = findTool(toolName);
  if (!tool) return { kind: "failed", message: `Unknown tool "${toolName}": it was removed from the registry after the task was created.`, permanent: true };
  const yieldState: YieldState = {};
  const job = createJobContext(host, yieldState);
  const yielded = (): RunOutcome | undefined =>
    yieldState.yield && { kind: "yielded", wakeAt: yieldState.yield.wakeAt, ...(yieldState.yield.reason !== undefined && { reason: yieldState.yield.reason }) };
  try {
    const value = await tool.run(args, job);
    // Cancellation wins over everything: a cancelled task must not be resumed or completed.
    if (host.signal.aborted) return { kind: "aborted" };
    // A tool that swallowed our yield still yielded: the context knows.
    return yielded() ?? { kind: "completed", result: toToolResult(value) };
  } catch (error) {
    if (host.signal.aborted) return { kind: "aborted" };
    return yielded() ?? { kind: "failed", message: errorMessage(error), permanent: isPermanent(error) };
  }
}
