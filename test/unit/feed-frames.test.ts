import { describe, it } from "vitest";
import { decodeFeedMessage, encodeFeedMessages } from "../../src/streams/feed-frames";
import { taskEventFromJson } from "../../src/core/model/events";
import type { StreamEvent } from "../../src/streams/feed-frames";

const event = (seq: number, data: StreamEvent["data"], type: string = "progress"): StreamEvent => ({
  seq,
  type,
  at: 1_700_000_000_000 + seq,
  data,
});

describe("feed frames", () => {
  it("round-trips events, data with newlines and spaces included", ({ expect }) => {
    const events = [
      event(1, { progress: 1, total: 2, message: "a b\nc" }),
      event(2, { status: "completed" }, "status"),
      event(3, { content: [] }, "result"),
    ];
    const [message, ...rest] = encodeFeedMessages(events);
    expect(rest).toEqual([]);
    const decoded = decodeFeedMessage(message ?? "");
    expect(decoded.map((e) => ({ seq: e.seq, type: e.type, at: e.at, data: JSON.parse(e.rawData) }))).toEqual(events);
    expect(decoded[0]?.rawData).toBe(JSON.stringify(events[0]?.data));
  });

  it("splits a long batch into messages under the size cap, keeping order", ({ expect }) => {
    const events = Array.from({ length: 50 }, (_, i) => event(i + 1, { message: "x".repeat(100) }));
    const messages = encodeFeedMessages(events, 1000);
    expect(messages.length).toBeGreaterThan(1);
    for (const message of messages) expect(message.length).toBeLessThanOrEqual(1000);
    expect(messages.flatMap(decodeFeedMessage).map((e) => e.seq)).toEqual(events.map((e) => e.seq));
  });

  it("sends an event larger than the cap alone rather than dropping it", ({ expect }) => {
    const messages = encodeFeedMessages(
      [event(1, { a: 1 }), event(2, { big: "y".repeat(500) }), event(3, { b: 2 })],
      100,
    );
    expect(messages.map((m) => decodeFeedMessage(m).map((e) => e.seq))).toEqual([[1], [2], [3]]);
  });

  it("skips lines that are not events; the core's typed decode skips types it does not know", ({ expect }) => {
    const decoded = decodeFeedMessage(
      ["garbage", "1 nope 5 {}", "x progress 5 {}", '2 log 7 {"level":"info"}', "3 Bad! 7 {}", ""].join("\n"),
    );
    expect(decoded.map((e) => [e.seq, e.type, JSON.parse(e.rawData)])).toEqual([
      [1, "nope", {}],
      [2, "log", { level: "info" }],
    ]);
    const typed = decoded.map((e) => taskEventFromJson(e.seq, e.type, e.at, e.rawData)).filter((e) => e !== undefined);
    expect(typed).toEqual([{ seq: 2, type: "log", at: 7, data: { level: "info" } }]);
  });
});
