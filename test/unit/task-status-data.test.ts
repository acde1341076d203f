// The task as data (structuredContent of the check-back tools and the fallback) and the card's activity pages.
import { describe, it } from "vitest";
import { taskActivity } from "../../src/protocol/task-activity";
import { taskStatusData } from "../../src/protocol/task-status-data";
import type { TaskEvent } from "../../src/tasks/model";
import type { TaskSnapshot } from "../../src/tasks/task-object";

const TASK_ID = "a".repeat(32);
const T0 = Date.UTC(2026, 10, 23, 12, 0, 0);

function snapshot(overrides: Partial<TaskSnapshot> = {}, status: TaskSnapshot["task"]["status"] = "working"): TaskSnapshot {
  return {
    task: { taskId: TASK_ID, status, statusMessage: "Running.", createdAt: "2026-11-23T12:00:00.000Z", lastUpdatedAt: "2026-11-23T12:00:05.000Z", ttl: 60_000, pollInterval: 1000 },
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

  it("carries the tool's result once the task completed, and the error of a task that failed with one", ({ expect }) => {
    const result = { content: [{ type: "text", text: "Done." }], structuredContent: { n: 1 } };
    expect(taskStatusData(snapshot({ outcome: { kind: "result", result } }, "completed")).result).toEqual(result);
    const failed = taskStatusData(snapshot({ outcome: { kind: "error", error: { code: -32603, message: "Boom." } } }, "failed"));
    expect(failed.error).toEqual({ code: -32603, message: "Boom." });
    expect(failed).not.toHaveProperty("result");
  });

  it("shows no result while the task runs", ({ expect }) => {
    expect(taskStatusData(snapshot({ outcome: { kind: "result", result: { content: [] } } }))).not.toHaveProperty("result");
  });
});

describe("taskActivity", () => {
  const event = (seq: number, type: TaskEvent["type"], data: TaskEvent["data"]): TaskEvent => ({ seq, type, data, at: T0 + seq * 1000 });

  it("keeps the steps and log lines of a page and moves the cursor past every event read", ({ expect }) => {
    const events = [event(4, "progress", { progress: 1 }), event(5, "step", { name: "item-1" }), event(6, "log", { level: "warning", message: "slow" }), event(7, "status", {})];
    expect(taskActivity(events, 3)).toEqual({
      steps: [{ name: "item-1", at: "2026-11-23T12:00:05.000Z" }],
      logs: [{ level: "warning", message: "slow", at: "2026-11-23T12:00:06.000Z" }],
      cursor: 7,
      more: false,
    });
  });

  it("keeps the cursor where it was when nothing is new", ({ expect }) => {
    expect(taskActivity([], 12)).toEqual({ steps: [], logs: [], cursor: 12, more: false });
  });

  it("says more events wait when the page is full", ({ expect }) => {
    expect(taskActivity([event(1, "progress", {}), event(2, "progress", {})], 0, 2)).toMatchObject({ cursor: 2, more: true });
  });
});
