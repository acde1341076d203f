/**
 * A job started by the call that creates its task, instead of by the task's alarm a moment later:
 * the run's start is written in the same turn as the task, and the job runs at once. Durability is
 * the alarm path's: the run holds a lease and the task's alarm sits at the lease's end, so a crash
 * restarts it from its last finished step and a live run is never doubled.
 *
 * A plain call waits its first moments (`waitMs`) for the run to end, with the task's writes held
 * in memory meanwhile (TaskCommits.defer): a job that ends in time answers the call at once, with no
 * commit, alarm, queue hand-over or feed in its way, and the task is written just after the answer.
 * One that does not is written before the call answers, and goes on durably. Either way a call that
 * outlives its first moments is a durable task, and a crash before the task was written leaves
 * nothing that could run the job again.
 */
import { markDelivered } from "../model/machine";
import type { TaskCommits } from "./commits";
import { isTerminal, type TaskRecord } from "../model/record";
import type { RunHooks, TaskRuns } from "./runs";

/**
 * How long after answering a call that ended in its first moments its task is written. Not at once:
 * the writes and what follows them (alarm, index, observers, queue) take the runtime's thread for a
 * few milliseconds, during which the answer's bytes would wait (docs/core.md). Any other call that
 * reaches the object first writes it before it reads (TaskObjectRuntime.settle).
 */
const WRITE_AFTER_ANSWER_MS = 20;

export interface LaunchDeps {
  runs: TaskRuns;
  /** The task's record now (it may have moved on since creation: a cancel, or its alarm started it). */
  load(): TaskRecord | undefined;
  commits: TaskCommits;
  /** Keeps the object alive while the run goes on after the call returns (ctx.waitUntil). */
  waitUntil(promise: Promise<unknown>): void;
}

/**
 * Starts the run of the task just created (`created`: that commit's follow-ups) and waits up to
 * `waitMs` for its first slice to end. Resolves with the task's record if the job ended (a terminal
 * status) within that time, else undefined: the run goes on, and readers follow it on its feed.
 */
export async function launchRun(
  created: Promise<void>,
  waitMs: number,
  deps: LaunchDeps,
): Promise<TaskRecord | undefined> {
  if (waitMs <= 0) {
    // Nobody waits for the job: its start is written with the task (one commit), and its body runs
    // just after the answer, which it would otherwise delay by whatever it does before its first wait.
    deps.waitUntil(startRun(deps, { deferJob: true }));
    await created;
    return undefined;
  }
  let ended: TaskRecord | undefined;
  let wake: () => void = () => undefined;
  const outcome = new Promise<void>((resolve) => (wake = resolve));
  deps.waitUntil(
    startRun(deps, {
      onOutcome: (after) => {
        ended = after;
        wake();
      },
    }),
  );
  await created;
  if (ended === undefined) {
    let timer: ReturnType<typeof setTimeout> | null = null;
    await Promise.race([outcome, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    if (timer !== null) clearTimeout(timer);
  }
  const done = ended !== undefined && isTerminal(ended.status);
  const written = () => deps.commits.persist();
  if (!done)
    deps.waitUntil(written()); // its writes happen now, before this call answers
  else {
    // The index hears of it now, so lists agree with the answer; the write waits until after the
    // answer, since a write issued now would hold the answer until it is durable.
    deps.waitUntil(deps.commits.announce());
    setTimeout(() => deps.waitUntil(written()), WRITE_AFTER_ANSWER_MS);
  }
  return done ? ended : undefined;
}

/** Starts the first run of a task still queued; its start is due now, as if the queue had delivered it. */
function startRun(deps: LaunchDeps, hooks: RunHooks): Promise<void> {
  const record = deps.load();
  if (!record || record.run.phase !== "queued") return Promise.resolve();
  return deps.runs
    .runSlice(markDelivered(record).record, Date.now(), hooks)
    .catch((error: unknown) => console.error("task run failed to commit; its alarm retries", record.taskId, error));
}
