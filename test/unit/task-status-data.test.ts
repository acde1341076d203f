// The task as data (for views: `_meta["mcp-task-worker/task"]` of the check-back tools and the fallback, docs/task-card.md) and the card's activity pages.
import { describe, it } from "vitest";
import { taskActivity } from "../../src/protocol/task-activity";
import { taskStatusData } from "../../src/protocol/task-status-data";
import type { TaskEvent, TaskSnapshot } from "../../src/core";

const TASK_ID = "a".repeat(32);
const T0 = Date.UTC(2026, 10, 23, 12, 0, 0);

function snapshot(
  overrides: Partial<TaskSnapshot> = {},
  status: TaskSnapshot["task"]["status"] = "working",
): TaskSnapshot {
  return {
    task: {
      taskId: TASK_ID,
      status,
      statusMessage: "Running.",
      createdAt: "2026-11-23T12:00:00.000Z",
      lastUpdatedAt: "2026-11-23T12:00:05.000Z",
      ttl: 60_000,
      pollInterval: 1000,
    },
    tool: "countdown",
    meta: {},
    lastSeq: 3,
    ...overrides,
  };
}

describe("taskStatusData", () => {
  it("puts progress, total and the latest message at the top level", ({ expect }) => {
    expect(taskStatusData(snapshot({ progress: { progress: 4, total: 10, message: "6 s left" } }))).toEqual({
      taskId: TASK_ID,
      tool: "countdown",
      status: "working",
      statusMessage: "Running.",
      progress: 4,
      total: 10,
      message: "6 s left",
      createdAt: "2026-11-23T12:00:00.000Z",
      lastUpdatedAt: "2026-11-23T12:00:05.000Z",
      ttl: 60_000,
      pollInterval: 1000,
    });
  });

  it("reports progress 0 and the status message before the job reports any", ({ expect }) => {
    const data = taskStatusData(snapshot());
    expect(data).toMatchObject({ progress: 0, message: "Running." });
    expect(data).not.toHaveProperty("total");
  });

  it("carries the tool's result once the task completed, and the error of a task that failed with one", ({
    expect,
  }) => {
    const result = { content: [{ type: "text", text: "Done." }], structuredContent: { n: 1 } };
    expect(taskStatusData(snapshot({ outcome: { kind: "result", result } }, "completed")).result).toEqual(result);
    const failed = taskStatusData(
      snapshot({ outcome: { kind: "error", error: { code: -32603, message: "Boom." } } }, "failed"),
    );
    expect(failed.error).toEqual({ code: -32603, message: "Boom." });
    expect(failed).not.toHaveProperty("result");
  });

  it("shows no result while the task runs", ({ expect }) => {
    expect(taskStatusData(snapshot({ outcome: { kind: "result", result: { content: [] } } }))).not.toHaveProperty(
      "result",
    );
  });
});

describe("taskActivity", () => {
  const at = (seq: number) => T0 + seq * 1000;
  const progress = (seq: number, value: number): TaskEvent => ({
    seq,
    at: at(seq),
    type: "progress",
    data: { progress: value },
  });

  it("keeps the steps and log lines of a page and moves the cursor past every event read", ({ expect }) => {
    const events: TaskEvent[] = [
      progress(4, 1),
      { seq: 5, at: at(5), type: "step", data: { name: "item-1" } },
      { seq: 6, at: at(6), type: "log", data: { level: "warning", message: "slow" } },
      { seq: 7, at: at(7), type: "partial", data: { n: 1, content: { type: "text", text: "Item 1 of 2: 1." } } },
      { seq: 8, at: at(8), type: "result", data: { content: [] } },
    ];
    expect(taskActivity(events, 3)).toEqual({
      steps: [{ name: "item-1", at: "2026-11-23T12:00:05.000Z" }],
      logs: [{ level: "warning", message: "slow", at: "2026-11-23T12:00:06.000Z" }],
      partial: [{ n: 1, text: "Item 1 of 2: 1.", at: "2026-11-23T12:00:07.000Z" }],
      cursor: 8,
      more: false,
    });
  });

  it("keeps the cursor where it was when nothing is new", ({ expect }) => {
    expect(taskActivity([], 12)).toEqual({ steps: [], logs: [], partial: [], cursor: 12, more: false });
  });

  it("says more events wait when the page is full", ({ expect }) => {
    expect(taskActivity([progress(1, 1), progress(2, 2)], 0, 2)).toMatchObject({ cursor: 2, more: true });
  });
});
