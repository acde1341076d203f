// The SSE writer against a real SSE parser (eventsource-parser, the one the MCP SDK clients use):
// what we write must read back as exactly the event we meant, whatever line breaks the data holds.
import { createParser, type EventSourceMessage } from "eventsource-parser";
import { describe, it } from "vitest";
import { encodeEventStreamChunk, decodeEventStreamChunk } from "../../src/streams/event-stream-frames";
import { sseFrame, SseStream } from "../../src/streams/sse";

function parse(text: string): EventSourceMessage[] {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  parser.feed(text);
  return events;
}

describe("sseFrame", () => {
  it("splits data on CRLF, a lone CR and a lone LF, so the parser reads every line back", ({ expect }) => {
    const frame = sseFrame({ id: "t.1", data: "one\r\ntwo\rthree\nfour" });
    expect(frame).toBe("id: t.1\ndata: one\ndata: two\ndata: three\ndata: four\n\n");
    expect(parse(frame)).toEqual([{ id: "t.1", event: undefined, data: "one\ntwo\nthree\nfour" }]);
  });

  it("a lone CR in data cannot end the event early or forge a field", ({ expect }) => {
    const events = parse(
      sseFrame({ data: 'x\rid: forged\revent: evil\rdata: {"jsonrpc":"2.0"}' }) + sseFrame({ id: "next", data: "{}" }),
    );
    expect(events).toHaveLength(2);
    expect(events[0]?.id).toBeUndefined();
    expect(events[0]?.event).toBeUndefined();
    expect(events[0]?.data).toBe('x\nid: forged\nevent: evil\ndata: {"jsonrpc":"2.0"}');
    expect(events[1]).toEqual({ id: "next", event: undefined, data: "{}" });
  });

  it("keeps trailing and empty lines of data", ({ expect }) => {
    expect(parse(sseFrame({ data: "a\r\n\r\nb\n" }))[0]?.data).toBe("a\n\nb\n");
  });

  it("writes one data line for data without a line break", ({ expect }) => {
    expect(sseFrame({ id: "s.x.1", event: "status", data: '{"a":1}' })).toBe(
      'id: s.x.1\nevent: status\ndata: {"a":1}\n\n',
    );
  });

  for (const bad of ["a\nb", "a\rb", "a\r\nb", "\n", "tail\r"]) {
    it(`refuses an id or event holding a line break: ${JSON.stringify(bad)}`, ({ expect }) => {
      expect(() => sseFrame({ id: bad, data: "{}" })).toThrow(/SSE id must not contain a line break/);
      expect(() => sseFrame({ event: bad, data: "{}" })).toThrow(/SSE event must not contain a line break/);
    });
  }
});

describe("the frames of GET /tasks/{id}/events", () => {
  it("refuse an event type holding a line break instead of writing a forged field", ({ expect }) => {
    const event = { seq: 1, type: "log\nid: forged", at: 1, data: { level: "info", message: "m" } };
    expect(() => encodeEventStreamChunk([event], { taskId: "0".repeat(32) }, false)).toThrow(
      /SSE event must not contain a line break/,
    );
  });

  it("carry a log message with every kind of line break as JSON on one data line", ({ expect }) => {
    const event = { seq: 2, type: "log", at: 1, data: { level: "info", message: "a\rb\r\nc" } };
    const chunk = decodeEventStreamChunk(encodeEventStreamChunk([event], { taskId: "0".repeat(32) }, false));
    const [parsed] = parse(new TextDecoder().decode(chunk?.bytes));
    expect(JSON.parse(parsed?.data ?? "")).toEqual(event.data);
  });
});

describe("SseStream", () => {
  it("writes a comment holding CR or LF as one comment line", async ({ expect }) => {
    const stream = new SseStream({ keepaliveMs: 60_000 });
    stream.comment("a\rb\nc");
    stream.send({ id: "1", data: "{}" });
    stream.close();
    const text = await stream.response.text();
    expect(text).toBe(": a b c\n\nid: 1\ndata: {}\n\n");
    expect(parse(text)).toEqual([{ id: "1", event: undefined, data: "{}" }]);
  });
});
