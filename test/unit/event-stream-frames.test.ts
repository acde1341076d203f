import { describe, it } from "vitest";
import { eventStreamFrames } from "../../src/tasks/event-stream-frames";
import type { TaskEvent } from "../../src/tasks/model";

const TASK = "0123456789abcdef0123456789abcdef";
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
const events: TaskEvent[] = [
  { seq: 4, type: "status", at: 1000, data: { taskId: TASK, status: "working" } },
  { seq: 5, type: "progress", at: 1001, data: { progress: 1, total: 2, message: "a\nb" } },
];

describe("the GET /tasks/{id}/events frames", () => {
  it("frames each event with its routable id, its type and its JSON on one data line", ({ expect }) => {
    expect(text(eventStreamFrames(events, { taskId: TASK, meta: {} }, false))).toBe(
      `id: t.${TASK}.0.4\nevent: status\ndata: {"taskId":"${TASK}","status":"working"}\n\n` +
        `id: t.${TASK}.0.5\nevent: progress\ndata: {"progress":1,"total":2,"message":"a\\nb"}\n\n`,
    );
  });

  it("echoes the correlation id on status events only", ({ expect }) => {
    const framed = text(eventStreamFrames(events, { taskId: TASK, meta: { correlationId: "c-1" } }, false));
    expect(framed).toContain(`"status":"working","_meta":{"mcp-task-worker/correlation-id":"c-1"}}`);
    expect(framed.match(/_meta/g)).toHaveLength(1);
  });

  it("with timing, precedes each event with its commit time as a comment", ({ expect }) => {
    const framed = text(eventStreamFrames(events, { taskId: TASK, meta: {} }, true));
    expect(framed.split("\n\n").filter((block) => block.startsWith(": at "))).toEqual([": at 1000", ": at 1001"]);
  });
});
