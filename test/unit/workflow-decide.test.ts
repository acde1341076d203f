// The Workflow engine's decisions (src/workflows/decide.ts) and the wake a report gives a task
// (src/core/object/engine-reports.ts): pure, one move per side effect, the end before the questions.
import { describe, it } from "vitest";
import { wakeRun } from "../../src/core/object/engine-reports";
import { waitForInput } from "../../src/core/model/input-wait";
import { beginRun, endRun, markDelivered, newTask } from "../../src/core/model/machine";
import type { TaskRecord } from "../../src/core";
import { nextMove, WAITING_MESSAGE, type EngineView, type RunView } from "../../src/workflows/decide";

const T0 = 1_700_000_000_000;
const FORM = { type: "object", properties: { publish: { type: "boolean" } }, required: ["publish"] };
const ASKED = { key: "publish", message: "Publish the report of 2 pages?", requestedSchema: FORM };
const YES = { action: "accept" as const, content: { publish: true } };
const RESULT = { content: [{ type: "text", text: "Published a report of 2 pages." }] };

const view = (over: Partial<EngineView> = {}): EngineView => ({ created: true, questions: [], ...over });
const run = (over: Partial<RunView> = {}): RunView => ({
  nudges: true,
  nudged: false,
  checkBackAt: T0 + 60_000,
  ...over,
});

describe("nextMove", () => {
  it("creates the instance first", ({ expect }) => {
    expect(nextMove(view({ created: false }), run())).toEqual({ kind: "create" });
  });

  it("asks an unanswered question, then sends its answer once answered, then checks the instance", ({ expect }) => {
    expect(nextMove(view({ questions: [{ n: 1, asked: ASKED, sent: false }] }), run())).toEqual({
      kind: "end",
      outcome: { kind: "input", questions: [ASKED] },
    });
    expect(nextMove(view({ questions: [{ n: 1, asked: ASKED, answer: YES, sent: false }] }), run())).toEqual({
      kind: "send",
      n: 1,
      answer: YES,
    });
    expect(nextMove(view({ questions: [{ n: 1, asked: ASKED, answer: YES, sent: true }] }), run())).toEqual({
      kind: "check",
    });
  });

  it("fails a question that breaks MCP's form rules instead of showing it", ({ expect }) => {
    const move = nextMove(
      view({
        questions: [
          {
            n: 1,
            asked: { ...ASKED, requestedSchema: { type: "object", properties: { nested: { type: "object" } } } },
            sent: false,
          },
        ],
      }),
      run(),
    );
    expect(move).toMatchObject({ kind: "end", outcome: { kind: "failed", permanent: true } });
  });

  it("ends with the instance's output or error before looking at questions (answered outside MCP)", ({ expect }) => {
    const pending = [{ n: 1, asked: ASKED, sent: false }];
    expect(nextMove(view({ questions: pending, output: RESULT }), run())).toEqual({
      kind: "end",
      outcome: { kind: "completed", result: RESULT },
    });
    expect(nextMove(view({ questions: pending, error: { message: "boom" } }), run())).toEqual({
      kind: "end",
      outcome: { kind: "failed", message: "The Workflow failed: boom", permanent: true },
    });
  });

  it("follows the instance's status: complete, errored, terminated from outside", ({ expect }) => {
    expect(nextMove(view(), run({ status: { status: "complete", output: "done" } }))).toEqual({
      kind: "end",
      outcome: { kind: "completed", result: { content: [{ type: "text", text: "done" }] } },
    });
    expect(nextMove(view(), run({ status: { status: "errored", error: { message: "x" } } }))).toMatchObject({
      outcome: { kind: "failed", message: "The Workflow failed: x." },
    });
    expect(nextMove(view(), run({ status: { status: "terminated" } }))).toMatchObject({
      outcome: { kind: "failed", message: "The Workflow instance was terminated outside MCP." },
    });
  });

  it("nudges a running instance once, then checks back later saying it runs on its Workflow", ({ expect }) => {
    expect(nextMove(view(), run({ status: { status: "running" } }))).toEqual({ kind: "nudge" });
    expect(nextMove(view(), run({ status: { status: "running" }, nudged: true }))).toEqual({
      kind: "end",
      outcome: { kind: "yielded", wakeAt: T0 + 60_000, statusMessage: WAITING_MESSAGE },
    });
    expect(nextMove(view(), run({ status: { status: "waiting" } }))).toMatchObject({ outcome: { kind: "yielded" } });
  });

  it("never nudges where the platform resumes instances itself (WORKFLOW_NUDGE off, the default)", ({ expect }) => {
    for (const status of ["running", "queued"]) {
      expect(nextMove(view(), run({ status: { status }, nudges: false }))).toEqual({
        kind: "end",
        outcome: { kind: "yielded", wakeAt: T0 + 60_000, statusMessage: WAITING_MESSAGE },
      });
    }
  });
});

describe("wakeRun", () => {
  const created = newTask(
    {
      taskId: "a".repeat(32),
      principal: "p",
      tool: "publish_report",
      args: {},
      defaultTtlMs: 600_000,
      maxTtlMs: 600_000,
      pollIntervalMs: 1000,
      dispatchGraceMs: 0,
    },
    T0,
  ).record;
  const running = (): TaskRecord => beginRun(markDelivered(created).record, "l1", 30_000, T0 + 10).record;
  const policy = { maxAttempts: 3, baseSeconds: 2 };

  it("makes a sleeping run due now, and leaves a running one alone", ({ expect }) => {
    const asleep = endRun(
      running(),
      "l1",
      { kind: "yielded", wakeAt: T0 + 60_000, statusMessage: WAITING_MESSAGE },
      policy,
      T0 + 20,
    ).record;
    expect(asleep.statusMessage).toBe(WAITING_MESSAGE);
    expect(wakeRun(asleep, T0 + 30).record.run.wakeAt).toBe(T0 + 30);
    const busy = running();
    expect(wakeRun(busy, T0 + 30).record).toBe(busy);
  });

  it("moves a task waiting for an answer back to working, due now", ({ expect }) => {
    const waiting = waitForInput(running(), "l1", [ASKED], T0 + 20).record;
    const { record, events } = wakeRun(waiting, T0 + 30);
    expect(record).toMatchObject({ status: "working", run: { phase: "sleeping", wakeAt: T0 + 30 } });
    expect(events.map((e) => e.type)).toEqual(["status"]);
  });
});
