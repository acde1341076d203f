/**
 * Runs one slice of a job: builds the JobContext over a JobHost (the TaskObject's storage and
 * event log, or memory for an inline call), calls the tool, and reports how the run ended.
 * It never writes task state itself; the TaskObject applies the outcome through the state machine.
 */
import type { JobHost, JobRunner, RunOutcome } from "../core";
import type { JsonObject } from "../json";
import { toToolResult, type JobContext, type ToolResult } from "./context";
import { errorMessage, isPermanent } from "./errors";
import { createJobContext } from "./job-context";
import type { YieldState } from "./yield-state";
import type { JobEmitter } from "./emit";
import type { StepMap } from "./steps";
import { runIdentity, type ResolveCaller, type RunIdentity } from "./run-identity";
import { JournalWatch } from "./journal-watch";

export { YIELD_THRESHOLD_MS } from "./job-context";

/**
 * Another engine than this one behind the same port: a tool whose work runs elsewhere (a Cloudflare
 * Workflow, src/workflows/) has each of its task's runs handled by `runSlice`, which follows that
 * work and says how the run ended; `stop` ends the work when its task is cancelled or fails.
 */
export interface ToolEngine {
  // The Worker's env as its author declares it (Cloudflare.Env, from `wrangler types`): the engine's binding is theirs.
  runSlice(input: unknown, host: JobHost, env: Cloudflare.Env): Promise<RunOutcome>;
  stop(env: Cloudflare.Env, taskId: string): Promise<void>;
}

/** What the runner needs of a tool (tools/define.ts's Tool is one). */
export interface RunnableTool {
  run(input: unknown, job: JobContext): Promise<ToolResult | string>;
  /** The step functions its job may fan out (steps.ts). */
  steps?: StepMap;
  /** Set when the tool's work runs on another engine (ToolEngine); `run` is then not called by a task. */
  engine?: ToolEngine;
  /** The version of its code (define-tool.ts): 1 if it declares none. */
  version?: number;
}

export { errorMessage, isPermanent } from "./errors";

/** Run `tool` on `args` for one slice. Never throws. */
export async function runTool(
  tool: RunnableTool,
  args: unknown,
  host: JobHost,
  emitter?: JobEmitter,
  identity?: RunIdentity,
): Promise<RunOutcome> {
  const yieldState: YieldState = {};
  const current = tool.version ?? 1;
  const versions = host.recordVersion?.(current);
  if (versions?.before !== undefined) {
    host.log(
      "info",
      `This run is on version ${current} of the tool; the runs before it were on version ${versions.before}. job.version is ${versions.started}, the version the task started on.`,
    );
  }
  const watch = host.journal ? new JournalWatch(host) : undefined;
  const journal = { version: versions?.started ?? current, ...(watch && { watch }) };
  const job = createJobContext(host, yieldState, tool.steps, emitter, identity, journal);
  const outcome = await runJob(tool, args, host, job, yieldState);
  await watch?.report({ started: journal.version, current });
  return outcome;
}

async function runJob(
  tool: RunnableTool,
  args: unknown,
  host: JobHost,
  job: JobContext,
  yieldState: YieldState,
): Promise<RunOutcome> {
  // A question outranks a wait for fanned-out items, which outranks a sleep started beside it: the run
  // that follows the answer reaches the fan-out again, and a sleep's wake time is memoized.
  const yielded = (): RunOutcome | undefined =>
    (yieldState.questions && { kind: "input", questions: yieldState.questions }) ??
    (yieldState.fanOut && { kind: "awaiting_fan_out", message: yieldState.fanOut.message }) ??
    (yieldState.yield && {
      kind: "yielded",
      wakeAt: yieldState.yield.wakeAt,
      ...(yieldState.yield.reason !== undefined && { reason: yieldState.yield.reason }),
    });
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

/**
 * The TaskObject's JobRunner over a tool registry (wired in src/package/task-object.ts): `env` is
 * every run's `job.env` and what other engines reach their platform with; `resolveCaller` the
 * adopter's, turning what a task stored of its caller into its `job.caller` before each run.
 */
export function jobRunner(
  findTool: (name: string) => RunnableTool | undefined,
  env?: Cloudflare.Env,
  emitter?: JobEmitter,
  resolveCaller?: () => ResolveCaller | undefined,
): JobRunner {
  return async (toolName: string, args: JsonObject, host: JobHost) => {
    const tool = findTool(toolName);
    if (!tool)
      return {
        kind: "failed",
        message: `Unknown tool "${toolName}": it was removed from the registry after the task was created.`,
        permanent: true,
      };
    if (!tool.engine) return runTool(tool, args, host, emitter, await runIdentity(host, env, resolveCaller?.()));
    if (!env)
      return {
        kind: "failed",
        message: `Tool "${toolName}" runs on another engine, which this runner was not given.`,
        permanent: true,
      };
    return tool.engine.runSlice(args, host, env);
  };
}
