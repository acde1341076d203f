import { describe, it } from "vitest";
import { webhookMessagesFor } from "../../src/webhooks/events";
import { newTask } from "../../src/core/model/machine";
import type { TaskEvent, TaskRecord, TaskStatus } from "../../src/core";

const TASK_ID = "0123456789abcdef0123456789abcdef";

function record(meta: Record<string, unknown> = {}): TaskRecord {
  return newTask(
    {
      taskId: TASK_ID,
      principal: "p",
      tool: "countdown",
      args: {},
      defaultTtlMs: 60_000,
      maxTtlMs: 60_000,
      pollIntervalMs: 1000,
      dispatchGraceMs: 1000,
      meta,
    },
    1_000_000,
  ).record;
}

const status = (seq: number, at: number, s: TaskStatus, statusMessage = "m"): TaskEvent => ({
  seq,
  at,
  type: "status",
  data: {
    taskId: TASK_ID,
    status: s,
    statusMessage,
    createdAt: "",
    lastUpdatedAt: "",
    ttl: 60_000,
    pollInterval: 1000,
  },
});
const progress = (seq: number, at: number, p: number): TaskEvent => ({
  seq,
  at,
  type: "progress",
  data: { progress: p, total: 10 },
});

describe("webhook events from task events", () => {
  const hook = { url: "https://example.com/h", events: [] };

  it("sends terminal statuses and input_required by default, not working or progress", ({ expect }) => {
    const events = [
      status(1, 1, "working"),
      progress(2, 2, 1),
      status(3, 3, "input_required"),
      status(4, 4, "completed"),
      { seq: 5, at: 4, type: "result" as const, data: {} },
    ];
    const { messages } = webhookMessagesFor(record(), events, hook, undefined);
    expect(messages.map((m) => m.type)).toEqual(["task.input_required", "task.completed"]);
    expect(messages.map((m) => m.id)).toEqual([`${TASK_ID}.3`, `${TASK_ID}.4`]);
  });

  it("maps failed and cancelled", ({ expect }) => {
    const { messages } = webhookMessagesFor(
      record(),
      [status(1, 1, "failed"), status(2, 2, "cancelled")],
      hook,
      undefined,
    );
    expect(messages.map((m) => m.type)).toEqual(["task.failed", "task.cancelled"]);
  });

  it("builds the documented body with correlation id and pull URLs, never the result", ({ expect }) => {
    const { messages } = webhookMessagesFor(
      record({ correlationId: "corr-1", baseUrl: "https://srv.example" }),
      [status(4, 5_000, "completed", "Completed.")],
      hook,
      undefined,
    );
    expect(JSON.parse(messages[0]?.body ?? "{}")).toEqual({
      type: "task.completed",
      timestamp: new Date(5_000).toISOString(),
      data: {
        taskId: TASK_ID,
        status: "completed",
        statusMessage: "Completed.",
        correlationId: "corr-1",
        resourceUri: `task://${TASK_ID}`,
        url: `https://srv.example/tasks/${TASK_ID}`,
      },
    });
  });

  it("adds working and throttled progress when opted in", ({ expect }) => {
    const opted = { url: "https://example.com/h", events: ["working" as const, "progress" as const] };
    const first = webhookMessagesFor(
      record(),
      [status(1, 0, "working"), progress(2, 1000, 1), progress(3, 1500, 2), progress(4, 2000, 3)],
      opted,
      undefined,
    );
    expect(first.messages.map((m) => m.type)).toEqual(["task.status", "task.progress", "task.progress"]);
    expect(first.messages.map((m) => m.id)).toEqual([`${TASK_ID}.1`, `${TASK_ID}.2`, `${TASK_ID}.4`]);
    // The throttle carries over to the next commit.
    const next = webhookMessagesFor(record(), [progress(5, 2500, 4)], opted, first.lastProgressAt);
    expect(next.messages).toEqual([]);
  });
});
