import { describe, it } from "vitest";
import {
  decodeEventStreamChunk,
  encodeEventStreamChunk,
  framesAfter,
  type EventStreamView,
} from "../../src/streams/event-stream-frames";
import type { StreamEvent } from "../../src/streams/feed-frames";

const TASK = "0123456789abcdef0123456789abcdef";
const view: EventStreamView = { taskId: TASK };
const text = (bytes: Uint8Array | undefined) => new TextDecoder().decode(bytes);
/** The frames alone, as a reader writes them. */
const eventStreamFrames = (list: StreamEvent[], v: typeof view, timing: boolean) =>
  decodeEventStreamChunk(encodeEventStreamChunk(list, v, timing))?.bytes;
const events: StreamEvent[] = [
  { seq: 4, type: "status", at: 1000, data: { taskId: TASK, status: "working" } },
  { seq: 5, type: "progress", at: 1001, data: { progress: 1, total: 2, message: "a\nb" } },
];
const frame4 = `id: t.${TASK}.0.4\nevent: status\ndata: {"taskId":"${TASK}","status":"working"}\n\n`;
const frame5 = `id: t.${TASK}.0.5\nevent: progress\ndata: {"progress":1,"total":2,"message":"a\\nb"}\n\n`;

describe("the GET /tasks/{id}/events frames", () => {
  it("frames each event with its routable id, its type and its JSON on one data line", ({ expect }) => {
    expect(text(eventStreamFrames(events, view, false))).toBe(frame4 + frame5);
  });

  it("echoes the correlation id on status events only", ({ expect }) => {
    const framed = text(
      eventStreamFrames(events, { taskId: TASK, statusMeta: { "mcp-task-worker/correlation-id": "c-1" } }, false),
    );
    expect(framed).toContain(`"status":"working","_meta":{"mcp-task-worker/correlation-id":"c-1"}}`);
    expect(framed.match(/_meta/g)).toHaveLength(1);
  });

  it("with timing, precedes each event with its commit time as a comment", ({ expect }) => {
    const framed = text(eventStreamFrames(events, view, true));
    expect(framed.split("\n\n").filter((block) => block.startsWith(": at "))).toEqual([": at 1000", ": at 1001"]);
  });
});

describe("the envelope between the TaskObject and the Worker", () => {
  it("carries the same frames with each event's sequence number and end", ({ expect }) => {
    const chunk = decodeEventStreamChunk(encodeEventStreamChunk(events, view, false));
    expect(chunk?.seqs).toEqual([4, 5]);
    expect(text(chunk?.bytes)).toBe(frame4 + frame5);
    expect(chunk?.ends).toEqual([frame4.length, frame4.length + new TextEncoder().encode(frame5).length]);
    expect(chunk?.final).toBe(false);
  });

  it("marks the chunk that holds the result event as the view's last", ({ expect }) => {
    const result: StreamEvent = { seq: 6, type: "result", at: 1002, data: { result: {} } };
    expect(decodeEventStreamChunk(encodeEventStreamChunk([...events, result], view, false))?.final).toBe(true);
  });

  it("gives each reader exactly the events after its position, each whole", ({ expect }) => {
    const chunk = decodeEventStreamChunk(encodeEventStreamChunk(events, view, true));
    if (!chunk) throw new Error("no chunk");
    expect(text(framesAfter(chunk, 3))).toBe(text(chunk.bytes));
    expect(text(framesAfter(chunk, 4))).toBe(`: at 1001\n\n${frame5}`);
    expect(framesAfter(chunk, 5)).toBeUndefined();
  });

  it("an empty replay is a valid chunk with no events", ({ expect }) => {
    const chunk = decodeEventStreamChunk(encodeEventStreamChunk([], view, false));
    expect(chunk).toMatchObject({ seqs: [], final: false });
    expect(chunk && framesAfter(chunk, 0)).toBeUndefined();
  });

  it("refuses bytes that are not an envelope", ({ expect }) => {
    const good = encodeEventStreamChunk(events, view, false);
    expect(decodeEventStreamChunk(new Uint8Array(4))).toBeUndefined();
    expect(decodeEventStreamChunk(good.subarray(0, good.byteLength - 1))).toBeUndefined();
    expect(decodeEventStreamChunk(new TextEncoder().encode("id: 1\ndata: x\n\n"))).toBeUndefined();
  });
});
