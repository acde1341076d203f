/**
 * Runs one slice of a job: builds the JobContext over a JobHost (the TaskObject's
 * storage and event log), calls the tool, and reports how the run ended.
 * It never writes task state itself; the TaskObject applies the outcome through the state machine.
 */
import { findTool } from "../tools/registry";
import { toToolResult, type ToolResult } from "../tools/define";
import { abortableDelay, JobYield, PermanentError, type JobContext, type LogLevel } from "./context";

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
}

export type RunOutcome =
  | { kind: "completed"; result: ToolResult }
  | { kind: "yielded"; wakeAt: number; reason?: string }
  | { kind: "failed"; message: string; permanent: boolean }
  | { kind: "aborted" };

/** Sleeps this long or longer always yield: the run ends and nothing is held while waiting. */
export const YIELD_THRESHOLD_MS = 30_000;

function createJobContext(host: JobHost, yieldState: { yield?: JobYield }): JobContext {
  let sleepCalls = 0;

  const waitUntil = async (wakeAt: number, reason?: string): Promise<void> => {
    const now = Date.now();
    if (wakeAt <= now) return;
    if (wakeAt - now >= YIELD_THRESHOLD_MS || wakeAt > host.sliceDeadline) {
      yieldState.yield = new JobYield(wakeAt, reason);
      throw yieldState.yield;
    }
    await abortableDelay(wakeAt - now, host.signal);
  };

  return {
    taskId: host.taskId,
    attempt: host.attempt,
    signal: host.signal,
    async progress(done, total, message) {
      if (host.signal.aborted) throw host.signal.reason;
      host.progress(done, total, message);
    },
    async log(message, level = "info") {
      host.log(level, message);
    },
    async step(name, fn) {
      const stored = host.loadStep(`step:${name}`);
      if (stored) return stored.value as Awaited<ReturnType<typeof fn>>;
      if (host.signal.aborted) throw host.signal.reason;
      const value = await fn();
      if (host.signal.aborted) throw host.signal.reason;
      host.saveStep(`step:${name}`, value);
      return value;
    },
    async sleep(seconds, reason) {
      if (!Number.isFinite(seconds) || seconds < 0) throw new PermanentError(`job.sleep needs a non-negative number of seconds, got ${seconds}`);
      sleepCalls += 1;
      const key = `sleep:${sleepCalls}`;
      const stored = host.loadStep(key);
      let wakeAt: number;
      if (stored && typeof stored.value === "number") {
        wakeAt = stored.value;
      } else {
        wakeAt = Date.now() + seconds * 1000;
        host.saveStep(key, wakeAt);
      }
      await waitUntil(wakeAt, reason);
    },
    async sleepUntil(time, reason) {
      await waitUntil(typeof time === "number" ? time : time.getTime(), reason);
    },
  };
}

const errorMessage = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** Run `toolName` on `args` for one slice. Never throws. */
export async function runJob(toolName: string, args: unknown, host: JobHost): Promise<RunOutcome> {
  const tool = findTool(toolName);
  if (!tool) return { kind: "failed", message: `Unknown tool "${toolName}": it was removed from the registry after the task was created.`, permanent: true };
  const yieldState: { yield?: JobYield } = {};
  const job = createJobContext(host, yieldState);
  try {
    const value = await tool.run(args, job);
    // A tool that swallowed our yield still yielded: the context knows.
    if (yieldState.yield) return { kind: "yielded", wakeAt: yieldState.yield.wakeAt, reason: yieldState.yield.reason };
    if (host.signal.aborted) return { kind: "aborted" };
    return { kind: "completed", result: toToolResult(value) };
  } catch (error) {
    if (yieldState.yield) return { kind: "yielded", wakeAt: yieldState.yield.wakeAt, reason: yieldState.yield.reason };
    if (host.signal.aborted) return { kind: "aborted" };
    return { kind: "failed", message: errorMessage(error), permanent: error instanceof PermanentError || (error instanceof Error && error.name === "ZodError") };
  }
}
