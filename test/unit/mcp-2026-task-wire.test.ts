// A task as the Tasks extension shows it, from the core's snapshot: the 2026 status reading
// (a tool's isError result completes the task), progress in statusMessage, inlined results.
import { describe, it } from "vitest";
import { createTaskResult, detailedTask, progressText, statusMessage } from "../../src/mcp-2026-07-28/task-wire";
import { applyTaskEvent, type TaskSnapshot } from "../../src/core";

const TASK_ID = "a".repeat(32);

function snapshot(
  overrides: Partial<TaskSnapshot> & { status?: TaskSnapshot["task"]["status"]; statusMessage?: string } = {},
): TaskSnapshot {
  const { status = "working", statusMessage: message = "Running.", ...rest } = overrides;
  return {
    task: {
      taskId: TASK_ID,
      status,
      statusMessage: message,
      createdAt: "2026-11-23T10:00:00.000Z",
      lastUpdatedAt: "2026-11-23T10:00:01.000Z",
      ttl: 60_000,
      pollInterval: 1000,
    },
    tool: "countdown",
    meta: {},
    lastSeq: 2,
    ...rest,
  };
}

describe("detailedTask", () => {
  it("shows a working task with ttlMs and pollIntervalMs and no result", ({ expect }) => {
    expect(detailedTask(snapshot())).toEqual({
      taskId: TASK_ID,
      status: "working",
      statusMessage: "Running.",
      createdAt: "2026-11-23T10:00:00.000Z",
      lastUpdatedAt: "2026-11-23T10:00:01.000Z",
      ttlMs: 60_000,
      pollIntervalMs: 1000,
    });
  });

  it("inlines a completed task's result with resultType and the correlation id, never related-task", ({ expect }) => {
    const done = snapshot({
      status: "completed",
      statusMessage: "Completed.",
      meta: { correlationId: "c-1" },
      outcome: { kind: "result", result: { content: [{ type: "text", text: "ok" }] } },
    });
    expect(detailedTask(done)).toMatchObject({
      status: "completed",
      result: {
        resultType: "complete",
        content: [{ type: "text", text: "ok" }],
        _meta: { "mcp-task-worker/correlation-id": "c-1" },
      },
    });
    expect(JSON.stringify(detailedTask(done))).not.toContain("related-task");
  });

  it("reads a tool's isError result as completed, not failed", ({ expect }) => {
    const toolError = snapshot({
      status: "failed",
      statusMessage: "The tool reported an error.",
      outcome: { kind: "result", result: { content: [{ type: "text", text: "boom" }], isError: true } },
    });
    expect(detailedTask(toolError)).toMatchObject({ status: "completed", result: { isError: true } });
    expect(createTaskResult(toolError).status).toBe("completed");
  });

  it("shows a JSON-RPC error as failed with the error", ({ expect }) => {
    const failed = snapshot({
      status: "failed",
      statusMessage: "Gave up.",
      outcome: { kind: "error", error: { code: -32603, message: "Gave up." } },
    });
    expect(detailedTask(failed)).toMatchObject({ status: "failed", error: { code: -32603, message: "Gave up." } });
    expect(detailedTask(failed)).not.toHaveProperty("result");
  });

  it("shows a cancelled task without its result", ({ expect }) => {
    const cancelled = snapshot({
      status: "cancelled",
      statusMessage: "Cancelled.",
      outcome: { kind: "result", result: { content: [], isError: true } },
    });
    expect(detailedTask(cancelled)).not.toHaveProperty("result");
    expect(detailedTask(cancelled).status).toBe("cancelled");
  });
});

describe("statusMessage", () => {
  it("adds the current progress to a working task's message", ({ expect }) => {
    expect(statusMessage(snapshot({ progress: { progress: 3, total: 10, message: "copying b.txt" } }))).toBe(
      "Running · 3/10 · copying b.txt",
    );
    expect(progressText({ progress: 2.5 })).toBe("2.5");
  });

  it("keeps it short", ({ expect }) => {
    expect(statusMessage(snapshot({ progress: { progress: 1, total: 2, message: "x".repeat(500) } }))?.length).toBe(
      200,
    );
  });

  it("leaves a finished task's message alone", ({ expect }) => {
    expect(
      statusMessage(
        snapshot({ status: "completed", statusMessage: "Completed.", progress: { progress: 2, total: 2 } }),
      ),
    ).toBe("Completed.");
  });
});

describe("applyTaskEvent", () => {
  it("folds status, progress and result events into the snapshot, and ignores steps and logs", ({ expect }) => {
    const start = snapshot();
    const progressed = applyTaskEvent(start, { seq: 3, at: 0, type: "progress", data: { progress: 1, total: 2 } });
    expect(progressed.progress).toEqual({ progress: 1, total: 2 });
    expect(applyTaskEvent(progressed, { seq: 4, at: 0, type: "step", data: { name: "s" } })).toBe(progressed);
    expect(applyTaskEvent(progressed, { seq: 5, at: 0, type: "log", data: { level: "info", message: "m" } })).toBe(
      progressed,
    );
    const view = { ...start.task, status: "completed" as const, statusMessage: "Completed." };
    const ended = applyTaskEvent(applyTaskEvent(progressed, { seq: 6, at: 0, type: "status", data: view }), {
      seq: 7,
      at: 0,
      type: "result",
      data: { content: [{ type: "text", text: "done" }] },
    });
    expect(ended).toMatchObject({ task: { status: "completed" }, outcome: { kind: "result" }, lastSeq: 7 });
  });

  it("reads a result event holding an error as a JSON-RPC error outcome", ({ expect }) => {
    expect(
      applyTaskEvent(snapshot(), { seq: 3, at: 0, type: "result", data: { error: { code: -32603, message: "gone" } } })
        .outcome,
    ).toEqual({ kind: "error", error: { code: -32603, message: "gone" } });
  });
});
