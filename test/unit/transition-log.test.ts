import { describe, it, vi } from "vitest";
import {
  beginRun,
  failRun,
  finishRun,
  markDelivered,
  newTask,
  recordProgress,
  type Transition,
} from "../../src/core/model/machine";
import type { NewTaskEvent, TaskEvent } from "../../src/core/model/events";
import { readSettings } from "../../src/config";
import {
  BATCH_WINDOW_MS,
  TransitionPrinter,
  transitionLines,
  transitionLogCalls,
} from "../../src/core/object/transition-log";

const T0 = 1_700_000_000_000;
const SECRET = "s3cret-argument";

/** Events as the TaskObject stores them: numbered, stamped with the commit time. */
const stored = (events: NewTaskEvent[], at: number): TaskEvent[] =>
  events.map((event, i) => ({ ...event, seq: i + 1, at }));
const linesOf = ({ record, events }: Transition, at: number) => transitionLines(record, stored(events, at));

const created = newTask(
  {
    taskId: "a".repeat(32),
    principal: "alice",
    tool: "batch_process",
    args: { note: SECRET },
    defaultTtlMs: 60_000,
    maxTtlMs: 120_000,
    pollIntervalMs: 1000,
    dispatchGraceMs: 0,
  },
  T0,
);
const started = beginRun(markDelivered(created.record).record, "lease-1", 30_000, T0 + 40);

describe("transitionLines", () => {
  it("gives one line per status change with task, tool, status, phase, runs and time since creation", ({ expect }) => {
    expect(linesOf(created, T0)).toEqual([
      {
        event: "task.transition",
        taskId: "a".repeat(32),
        tool: "batch_process",
        status: "working",
        phase: "queued",
        runs: 0,
        durationMs: 0,
      },
    ]);
    expect(linesOf(started, T0 + 40)).toEqual([
      {
        event: "task.transition",
        taskId: "a".repeat(32),
        tool: "batch_process",
        status: "working",
        phase: "running",
        runs: 1,
        durationMs: 40,
      },
    ]);
  });

  it("logs a retry as a backoff and the end as its terminal status", ({ expect }) => {
    const retry = failRun(
      started.record,
      "lease-1",
      `bad input ${SECRET}`,
      false,
      { maxAttempts: 3, baseSeconds: 2 },
      T0 + 500,
    );
    expect(linesOf(retry, T0 + 500).map((l) => [l.status, l.phase, l.durationMs])).toEqual([
      ["working", "backoff", 500],
    ]);
    const done = finishRun(
      started.record,
      "lease-1",
      { content: [{ type: "text", text: `result ${SECRET}` }] },
      T0 + 2000,
    );
    expect(linesOf(done, T0 + 2000).map((l) => [l.status, l.phase, l.durationMs])).toEqual([
      ["completed", "done", 2000],
    ]);
  });

  it("writes no line for progress, steps or logs", ({ expect }) => {
    const progressed = recordProgress(started.record, { progress: 1, total: 2, message: SECRET }, T0 + 100);
    expect(linesOf(progressed, T0 + 100)).toEqual([]);
  });

  it("never carries arguments, results or status messages", ({ expect }) => {
    const failed = failRun(
      started.record,
      "lease-1",
      `bad input ${SECRET}`,
      true,
      { maxAttempts: 3, baseSeconds: 2 },
      T0 + 700,
    );
    const line = JSON.stringify(linesOf(failed, T0 + 700));
    expect(line).toContain('"status":"failed"');
    expect(line).not.toContain(SECRET);
  });
});

describe("transitionLogCalls", () => {
  const failed = failRun(started.record, "lease-1", "boom", true, { maxAttempts: 3, baseSeconds: 2 }, T0 + 700);
  const lines = [...linesOf(created, T0), ...linesOf(started, T0 + 40), ...linesOf(failed, T0 + 700)];

  it("lines (deployed): one console call per line, a failure at warn", ({ expect }) => {
    const calls = transitionLogCalls(lines, "lines");
    expect(calls.map(([level]) => level)).toEqual(["info", "info", "warn"]);
    expect(calls.map(([, text]) => JSON.parse(text))).toEqual(lines);
  });

  it("batched (npm run dev): one call per level, the same lines joined by newlines, in order", ({ expect }) => {
    const calls = transitionLogCalls(lines, "batched");
    expect(calls.map(([level]) => level)).toEqual(["info", "warn"]);
    expect(calls.flatMap(([, text]) => text.split("\n").map((line) => JSON.parse(line) as unknown))).toEqual(lines);
    expect(transitionLogCalls(lines.slice(0, 2), "batched")).toHaveLength(1);
    expect(transitionLogCalls([], "batched")).toEqual([]);
  });

  it("reads TRANSITION_LOG: batched only when it says so, lines when unset, and refuses any other word", ({
    expect,
  }) => {
    expect(readSettings({ TRANSITION_LOG: "batched" }).transitionLog).toBe("batched");
    expect(readSettings({ TRANSITION_LOG: " Batched " }).transitionLog).toBe("batched");
    for (const other of ["lines", "", undefined])
      expect(readSettings({ TRANSITION_LOG: other }).transitionLog).toBe("lines");
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    expect(readSettings({ TRANSITION_LOG: "nonsense" }).problems).toHaveLength(1);
    log.mockRestore();
  });
});

describe("TransitionPrinter", () => {
  /** A printer whose timers are held here, to fire by hand. */
  function harness() {
    const printed: [string, string][] = [];
    const timers: { run: () => void; delayMs: number }[] = [];
    const printer = new TransitionPrinter(
      (level, text) => printed.push([level, text]),
      (run, delayMs) => timers.push({ run, delayMs }),
    );
    return { printed, timers, printer };
  }
  const [queued, running] = [...linesOf(created, T0), ...linesOf(started, T0 + 40)];
  if (!queued || !running) throw new Error("no lines");

  it("lines: prints each commit's lines on a zero-delay timer, one call per line", ({ expect }) => {
    const { printed, timers, printer } = harness();
    printer.add([queued], "lines", T0);
    printer.add([running], "lines", T0 + 1);
    expect(timers.map((t) => t.delayMs)).toEqual([0]);
    expect(printed).toEqual([]);
    timers[0]?.run();
    expect(printed.map(([, text]) => JSON.parse(text) as unknown)).toEqual([queued, running]);
  });

  it("batched: lines of commits within the window share one console call, after it", ({ expect }) => {
    const { printed, timers, printer } = harness();
    printer.add([queued], "batched", T0);
    printer.add([running], "batched", T0 + BATCH_WINDOW_MS / 2);
    expect(timers.map((t) => t.delayMs)).toEqual([BATCH_WINDOW_MS]);
    timers[0]?.run();
    expect(printed).toHaveLength(1);
    expect(printed[0]?.[1].split("\n").map((line) => JSON.parse(line) as unknown)).toEqual([queued, running]);
    // The next line starts a new window.
    printer.add([queued], "batched", T0 + 2 * BATCH_WINDOW_MS);
    expect(timers).toHaveLength(2);
  });

  it("sets its timer again when the last one is long overdue (its object went away before it fired), losing no line", ({
    expect,
  }) => {
    const { printed, timers, printer } = harness();
    printer.add([queued], "batched", T0);
    printer.add([running], "batched", T0 + BATCH_WINDOW_MS + 5_000);
    expect(timers).toHaveLength(2);
    timers[1]?.run();
    expect(printed[0]?.[1].split("\n").map((line) => JSON.parse(line) as unknown)).toEqual([queued, running]);
    timers[0]?.run(); // the lost one firing after all prints nothing twice
    expect(printed).toHaveLength(1);
  });
});
