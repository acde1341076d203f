// The console's fetch-based SSE reader (ui/console/sse.ts) and its time formats (format.ts).
import { describe, it } from "vitest";
import { age, duration, fraction } from "../../ui/console/format";
import { readSse, SseParser } from "../../ui/console/sse";

describe("console SSE parser", () => {
  it("parses events split anywhere, with CRLF, CR or LF line ends, skipping comments", ({ expect }) => {
    const text =
      'retry: 1500\r\n\r\n: keepalive\n\nid: t.1\nevent: progress\ndata: {"a":\r\ndata: 1}\r\rid: t.2\ndata:no space\n\n';
    for (let split = 0; split < text.length; split++) {
      const parser = new SseParser();
      const events = [...parser.push(text.slice(0, split)), ...parser.push(text.slice(split))];
      expect(events, `split at ${split}`).toEqual([
        { id: "t.1", event: "progress", data: '{"a":\n1}' },
        { id: "t.2", data: "no space" },
      ]);
      expect(parser.retryMs).toBe(1500);
    }
  });

  it("dispatches nothing for an event without data, and holds an unfinished event back", ({ expect }) => {
    const parser = new SseParser();
    expect(parser.push("id: t.9\n\nevent: x\ndata: 1\n")).toEqual([]);
    expect(parser.push("\n")).toEqual([{ id: "t.9", event: "x", data: "1" }]);
  });

  it("reads a byte stream whose chunks split a UTF-8 character", async ({ expect }) => {
    const bytes = new TextEncoder().encode("data: héllo ✓\n\n");
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(new Uint8Array([byte]));
        controller.close();
      },
    });
    const seen: string[] = [];
    await readSse(body, (message) => seen.push(message.data));
    expect(seen).toEqual(["héllo ✓"]);
  });
});

describe("console formats", () => {
  it("says how long ago, coarser as it grows", ({ expect }) => {
    expect([0, 4_000, 42_000, 5 * 60_000, 3 * 3600_000, 72 * 3600_000].map(age)).toEqual([
      "just now",
      "just now",
      "42 s ago",
      "5 min ago",
      "3 h ago",
      "3 days ago",
    ]);
  });

  it("gives durations in their two largest units", ({ expect }) => {
    expect([850, 42_000, 185_000, 7_800_000, 3 * 86_400_000 + 4 * 3600_000].map(duration)).toEqual([
      "850 ms",
      "42 s",
      "3 min 5 s",
      "2 h 10 min",
      "3 d 4 h",
    ]);
  });

  it("writes progress as a fraction", ({ expect }) => {
    expect([fraction(7, 30), fraction(7, undefined), fraction(0.5, 1)]).toEqual(["7 / 30", "7", "0.50 / 1"]);
  });
});
