/**
 * A client that polls a task only at the interval it is told, against the real state machine on
 * a simulated clock: how many polls a task shape costs and how late its end is seen. Used by the
 * poll-interval tests and for the per-task-hour figures in docs/polling.md.
 */
import { beginRun, finishRun, newTask, recordProgress } from "../../src/core/model/machine";
import { answerInputs, waitForInput } from "../../src/core/model/input-wait";
import { isTerminal, type TaskRecord } from "../../src/core";
import { toTaskView } from "../../src/core/model/view";

export const T0 = 1_700_000_000_000;
const LEASE = "lease-1";
const SCHEMA = { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] };

/** What happens to the task when: each step turns the record into the next one. */
export type Step = { at: number; apply: (record: TaskRecord, now: number) => TaskRecord };

export interface Shape {
  /** Steps, in time order (ms after creation); the last one ends the task. */
  steps: Step[];
  ttlMs?: number;
}

export interface Followed {
  polls: number;
  /** ms from the task's end to the poll that saw it. */
  lateMs: number;
  /** Every interval told, in order (the creation's first). */
  told: number[];
}

const start = (startAfterMs: number): Step => ({
  at: startAfterMs,
  apply: (r, now) => beginRun(r, LEASE, 30_000, now).record,
});
const finish = (at: number): Step => ({
  at,
  apply: (r, now) => finishRun(r, LEASE, { content: [{ type: "text", text: "done" }] }, now).record,
});

/** `count` progress reports, one every `everyMs` after a start at `startMs` (ms after creation). */
function ticks(startMs: number, count: number, everyMs: number, total: number | undefined): Step[] {
  return Array.from({ length: count }, (_, i) => ({
    at: startMs + (i + 1) * everyMs,
    apply: (r: TaskRecord, now: number) =>
      recordProgress(r, { progress: i + 1, ...(total !== undefined && { total }) }, now).record,
  }));
}

/** A `countdown` of `seconds`: starts `startMs` after creation, a progress report each second, ends just after the last. */
export function countdown(seconds: number, startMs = 50, withTotal = true): Shape {
  return {
    steps: [
      start(startMs),
      ...ticks(startMs, seconds, 1000, withTotal ? seconds : undefined),
      finish(startMs + seconds * 1000 + 5),
    ],
  };
}

/** A job that reports nothing until it ends after `ms`. */
export const silent = (ms: number, startMs = 50): Shape => ({ steps: [start(startMs), finish(startMs + ms)] });

/** `deploy`-like: asks at once, is answered after `answerMs`, then runs three 1-s steps with progress. */
export function question(answerMs: number, ttlMs = 3 * 86_400_000): Shape {
  const ask: Step = {
    at: 60,
    apply: (r, now) =>
      waitForInput(r, LEASE, [{ key: "confirm", message: "Deploy?", requestedSchema: SCHEMA }], now).record,
  };
  const answer: Step = {
    at: 60 + answerMs,
    apply: (r, now) => {
      const answered = answerInputs(r, { confirm: { action: "accept", content: { confirm: true } } }, now);
      if (!answered.ok) throw new Error(`answer refused: ${answered.reason}`);
      return answered.transition.record;
    },
  };
  const resumeAt = 60 + answerMs + 50;
  const resume: Step = { at: resumeAt, apply: (r, now) => beginRun(r, LEASE, 30_000, now).record };
  return { steps: [start(50), ask, answer, resume, ...ticks(resumeAt, 3, 1000, 3), finish(resumeAt + 3005)], ttlMs };
}

export interface Client {
  /** Poll every this many ms whatever the task says (the fixed 1-s interval every task suggested before). */
  fixedMs?: number;
  /** The longest interval the client honours: Claude Code 2.1.328 keeps a told interval within 250 ms-30 s. */
  maxMs?: number;
}

/**
 * Follows `shape` from its creation: the first poll comes the creation's interval after it (the
 * CreateTaskResult's), each next one the interval the last poll was told, as `client` takes it.
 */
export function follow(shape: Shape, client: Client = {}): Followed {
  const wait = (told: number): number => client.fixedMs ?? Math.min(told, client.maxMs ?? Number.POSITIVE_INFINITY);
  let record = newTask(
    {
      taskId: "a".repeat(32),
      principal: "p",
      tool: "t",
      args: {},
      requestedTtlMs: shape.ttlMs ?? null,
      defaultTtlMs: 86_400_000,
      maxTtlMs: 7 * 86_400_000,
      pollIntervalMs: 1000,
      dispatchGraceMs: 0,
    },
    T0,
  ).record;
  const steps = [...shape.steps];
  const told = [toTaskView(record, T0).pollInterval];
  let now = T0 + wait(told[0] ?? 0);
  let endedAt: number | undefined;
  for (let polls = 1; polls < 1_000_000; polls++) {
    while (steps.length > 0 && T0 + (steps[0]?.at ?? 0) <= now) {
      const step = steps.shift();
      if (!step) break;
      record = step.apply(record, T0 + step.at);
      if (isTerminal(record.status)) endedAt = T0 + step.at;
    }
    if (endedAt !== undefined) return { polls, lateMs: now - endedAt, told };
    const interval = toTaskView(record, now).pollInterval;
    told.push(interval);
    now += wait(interval);
  }
  throw new Error("the follower never saw the end");
}
