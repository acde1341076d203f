// The Worker's shared socket for GET /tasks/{id}/events readers, against an in-memory TaskObject
// feed: readers join at any point, the socket's owner leaves, the socket is lost, the task ends.
// Every reader must get exactly the events after its own position, in order, each once.
// Sockets and the object answer on timers of vitest's fake clock, moved by the tests: one timer at
// a time until a join is done (the order real time would take), or all of them to let every
// message in flight arrive.
import { afterEach, beforeEach, describe, it, vi } from "vitest";
import { encodeEventStreamChunk } from "../../src/streams/event-stream-frames";
import {
  joinEventStream,
  openHubCount,
  type EventStreamReader,
  type EventStreamSink,
  type EventStreamSource,
  type HubSocket,
} from "../../src/streams/event-stream-hub";
import type { StreamEvent } from "../../src/streams/feed-frames";

const TASK = "0123456789abcdef0123456789abcdef";
const view = { taskId: TASK };
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
/** Every message, close and answer in flight arrives, and whatever they set off in turn. */
const settle = () => vi.runAllTimersAsync();
/** Moves the clock one timer at a time until `work` is done, then gives its result. */
async function until<T>(work: Promise<T>): Promise<T> {
  let done = false;
  void work.then(
    () => (done = true),
    () => (done = true),
  );
  // Each step yields to the real event loop first, so whatever the last timer set off runs too.
  while (!done) await vi.advanceTimersToNextTimerAsync();
  return work;
}

/** The client end of a socket to the fake object. */
class FakeSocket extends EventTarget<WebSocketEventMap> implements HubSocket {
  binaryType: HubSocket["binaryType"] = "blob";
  open = true;
  accept(): void {}
  close(): void {
    this.open = false;
  }
  deliver(bytes: Uint8Array): void {
    const data = bytes.slice().buffer;
    setTimeout(() => this.open && this.dispatchEvent(Object.assign(new Event("message"), { data })), 0);
  }
  lose(code: number, reason: string): void {
    setTimeout(() => {
      if (!this.open) return;
      this.open = false;
      this.dispatchEvent(Object.assign(new Event("close"), { code, reason }));
    }, 0);
  }
}

/** What a TaskObject's /feed answers, in memory: the log, sockets that get each commit, and the replay body. */
class FakeTaskFeed implements EventStreamSource {
  log: StreamEvent[] = [{ seq: 1, type: "status", at: 0, data: { status: "working" } }];
  sockets: FakeSocket[] = [];
  exists = true;
  unreachable = false;
  /** The next fetch never answers: it stands for one of a request that ended while it was in flight. */
  hangNext = false;

  get ended(): boolean {
    return this.log.at(-1)?.type === "result";
  }

  async fetch(input: string, init?: RequestInit) {
    if (this.hangNext) {
      this.hangNext = false;
      return new Promise<never>(() => {});
    }
    await tick();
    if (this.unreachable) throw new Error("Durable Object reset");
    const url = new URL(input);
    const after = Number(url.searchParams.get("after"));
    const reply = (status: number, body?: Uint8Array, webSocket: FakeSocket | null = null) => ({
      status,
      webSocket,
      arrayBuffer: async () => (body ?? new Uint8Array()).slice().buffer,
    });
    if (!this.exists) return reply(404);
    if (url.searchParams.get("strict") === "1" && after > this.log.length) return reply(416);
    const replay = encodeEventStreamChunk(
      this.log.filter((e) => e.seq > after),
      view,
      false,
    );
    const upgrade = new Headers(init?.headers).get("Upgrade") === "websocket";
    if (!upgrade || this.ended) return reply(200, replay);
    const socket = new FakeSocket();
    this.sockets.push(socket);
    socket.deliver(replay);
    return reply(101, undefined, socket);
  }

  commit(count = 1, last = false): void {
    const events: StreamEvent[] = [];
    for (let i = 0; i < count; i++) {
      const seq = this.log.length + 1;
      const event: StreamEvent =
        last && i === count - 1
          ? { seq, type: "result", at: 0, data: {} }
          : { seq, type: "progress", at: 0, data: { progress: seq } };
      this.log.push(event);
      events.push(event);
    }
    const chunk = encodeEventStreamChunk(events, view, false);
    for (const socket of this.sockets) if (socket.open) socket.deliver(chunk);
    if (last) for (const socket of this.sockets) socket.lose(1000, "terminal");
  }

  openSockets(): number {
    return this.sockets.filter((s) => s.open).length;
  }
}

class FakeSink implements EventStreamSink {
  text = "";
  closed = false;
  private handlers: (() => void)[] = [];
  sendBytes(bytes: Uint8Array): void {
    this.text += new TextDecoder().decode(bytes);
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const handler of this.handlers.splice(0)) handler();
  }
  onClose(handler: () => void): void {
    if (this.closed) handler();
    else this.handlers.push(handler);
  }
  seqs(): number[] {
    return [...this.text.matchAll(/^id: t\.[0-9a-f]{32}\.0\.(\d+)$/gm)].map((m) => Number(m[1]));
  }
}

let keys = 0;
async function join(feed: FakeTaskFeed, afterSeq: number, key: string) {
  const joined = await joinEventStream(feed, key, "sse", afterSeq);
  if (!joined.ok) throw new Error(`refused: ${joined.status}`);
  const sink = new FakeSink();
  if (joined.complete) {
    sink.sendBytes(joined.complete);
    sink.close();
    return { sink, done: Promise.resolve(), reader: undefined, complete: true };
  }
  const done = joined.reader.pump(sink);
  return { sink, done, reader: joined.reader as EventStreamReader, complete: false };
}
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe("readers of one task share one socket", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("readers joining at different points each get exactly the events after their own, through the end", async ({
    expect,
  }) => {
    const feed = new FakeTaskFeed();
    const key = `k${++keys}`;
    const first = await until(join(feed, 0, key));
    feed.commit(2);
    const late = await until(join(feed, 0, key));
    const resumed = await until(join(feed, 2, key));
    feed.commit(1);
    // A reader joins while a commit is on its way to the hub: the replay and the live chunk overlap.
    const racing = join(feed, 1, key);
    feed.commit(2);
    const racer = await until(racing);
    await settle();
    feed.commit(1, true);
    await until(Promise.all([first.done, late.done, resumed.done, racer.done]));
    expect(first.sink.seqs()).toEqual(range(1, 7));
    expect(late.sink.seqs()).toEqual(range(1, 7));
    expect(resumed.sink.seqs()).toEqual(range(3, 7));
    expect(racer.sink.seqs()).toEqual(range(2, 7));
    expect(feed.sockets).toHaveLength(1);
    expect(openHubCount()).toBe(0);
  });

  it("when the socket's owner leaves, another reader's request opens the next one and nothing is lost or repeated", async ({
    expect,
  }) => {
    const feed = new FakeTaskFeed();
    const key = `k${++keys}`;
    const owner = await until(join(feed, 0, key));
    const others = [await until(join(feed, 0, key)), await until(join(feed, 0, key))];
    feed.commit(2);
    await settle();
    owner.sink.close();
    await until(owner.done);
    feed.commit(2); // committed while no socket is open: the next socket's replay brings it
    await settle();
    expect(feed.sockets).toHaveLength(2);
    expect(feed.sockets[0]?.open).toBe(false);
    feed.commit(1, true);
    await until(Promise.all(others.map((o) => o.done)));
    for (const other of others) expect(other.sink.seqs()).toEqual(range(1, 6));
    expect(owner.sink.seqs()).toEqual(range(1, 3));
  });

  it("a lost socket is reopened from the hub's position; losses with nothing in between end the readers", async ({
    expect,
  }) => {
    const feed = new FakeTaskFeed();
    const key = `k${++keys}`;
    const a = await until(join(feed, 0, key));
    const b = await until(join(feed, 0, key));
    feed.commit(1);
    await settle();
    feed.sockets[0]?.lose(1006, "");
    await settle();
    feed.commit(1);
    await settle();
    expect(feed.sockets).toHaveLength(2);
    expect(a.sink.seqs()).toEqual(range(1, 3));
    for (let i = 0; i < 3; i++) {
      feed.sockets.at(-1)?.lose(1006, "");
      await settle();
    }
    await until(Promise.all([a.done, b.done]));
    expect(b.sink.seqs()).toEqual(range(1, 3));
    expect(a.sink.closed && b.sink.closed).toBe(true);
    expect(openHubCount()).toBe(0);
  });

  it("the last reader to leave closes the socket and the hub is gone", async ({ expect }) => {
    const feed = new FakeTaskFeed();
    const key = `k${++keys}`;
    const readers = [await until(join(feed, 0, key)), await until(join(feed, 0, key))];
    for (const r of readers) r.sink.close();
    await until(Promise.all(readers.map((r) => r.done)));
    expect(feed.openSockets()).toBe(0);
    expect(openHubCount()).toBe(0);
  });

  it("a finished task is the rest of its events at once, and no socket", async ({ expect }) => {
    const feed = new FakeTaskFeed();
    feed.commit(2, true);
    const reader = await until(join(feed, 1, `k${++keys}`));
    expect(reader.complete).toBe(true);
    expect(reader.sink.seqs()).toEqual([2, 3]);
    expect(feed.sockets).toHaveLength(0);
    expect(openHubCount()).toBe(0);
  });

  it("a reader joining a live hub just as the task ends gets the rest at once", async ({ expect }) => {
    const feed = new FakeTaskFeed();
    const key = `k${++keys}`;
    const live = await until(join(feed, 0, key));
    await settle();
    feed.log.push({ seq: 2, type: "result", at: 0, data: {} }); // committed, not yet sent to the socket
    const late = await until(join(feed, 0, key));
    expect(late.complete).toBe(true);
    expect(late.sink.seqs()).toEqual([1, 2]);
    live.sink.close();
    await until(live.done);
  });

  it("refuses an unknown task and a position past the log's end, leaving no hub", async ({ expect }) => {
    const feed = new FakeTaskFeed();
    const key = `k${++keys}`;
    expect(await until(joinEventStream(feed, key, "sse", 5))).toEqual({ ok: false, status: 416 });
    const reader = await until(join(feed, 0, key));
    expect(await until(joinEventStream(feed, key, "sse", 9))).toEqual({ ok: false, status: 416 });
    reader.sink.close();
    await until(reader.done);
    feed.exists = false;
    expect(await until(joinEventStream(feed, key, "sse", 0))).toEqual({ ok: false, status: 404 });
    expect(openHubCount()).toBe(0);
  });

  it("an object that cannot be reached is a 503 to the joining reader, and leaves the others be", async ({
    expect,
  }) => {
    const feed = new FakeTaskFeed();
    const key = `k${++keys}`;
    feed.unreachable = true;
    expect(await until(joinEventStream(feed, key, "sse", 0))).toEqual({ ok: false, status: 503 });
    expect(openHubCount()).toBe(0);
    feed.unreachable = false;
    const reader = await until(join(feed, 0, key));
    await settle();
    feed.unreachable = true;
    expect(await until(joinEventStream(feed, key, "sse", 0))).toEqual({ ok: false, status: 503 });
    feed.unreachable = false;
    feed.commit(1, true);
    await until(reader.done);
    expect(reader.sink.seqs()).toEqual([1, 2]);
    expect(openHubCount()).toBe(0);
  });

  it("a reader that comes while another's socket opens does not wait on that opening, which may never end", async ({
    expect,
  }) => {
    const feed = new FakeTaskFeed();
    const key = `k${++keys}`;
    feed.hangNext = true;
    void joinEventStream(feed, key, "sse", 0);
    let joined = false;
    const second = join(feed, 0, key).then((reader) => {
      joined = true;
      return reader;
    });
    await settle();
    expect(joined).toBe(true);
    const reader = await second;
    // Its hub, the first open, is the one later readers join: no further socket.
    const third = await until(join(feed, 0, key));
    expect(feed.sockets).toHaveLength(1);
    feed.commit(1, true);
    await until(Promise.all([reader.done, third.done]));
    expect(reader.sink.seqs()).toEqual([1, 2]);
    expect(third.sink.seqs()).toEqual([1, 2]);
    expect(openHubCount()).toBe(0);
  });

  it("a task that expires ends every reader", async ({ expect }) => {
    const feed = new FakeTaskFeed();
    const key = `k${++keys}`;
    const readers = [await until(join(feed, 0, key)), await until(join(feed, 0, key))];
    for (const socket of feed.sockets) socket.lose(1000, "expired");
    await until(Promise.all(readers.map((r) => r.done)));
    expect(readers.every((r) => r.sink.closed)).toBe(true);
    expect(feed.sockets).toHaveLength(1);
    expect(openHubCount()).toBe(0);
  });
});
