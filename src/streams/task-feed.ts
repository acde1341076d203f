/**
 * A log object's readers (the TaskObject's): each is a hibernatable WebSocket (`ctx.acceptWebSocket`),
 * so an object with waiting readers can be evicted from memory and still deliver its next event.
 * A reader gets the events after its `after` sequence number, then live ones; the socket closes
 * after the terminal `result` event. A reader picks its message form with `format`: the default is
 * the line form of `feed-frames.ts` (readers that turn events into protocol messages); `sse` (and
 * `sse-timing`) is the finished `GET /tasks/{id}/events` view of `event-stream-frames.ts`, built once
 * per commit for all such readers. The form is the socket's tag, so it survives hibernation.
 *
 * A feed with nothing live to come (a finished task, a resumed stream whose end is written) is
 * answered 200 with the replay as its body instead of a socket; so is a request without
 * `Upgrade: websocket` (a reader that joins a socket its Worker already holds needs only the replay).
 * In the `sse` forms a message and a replay body are one envelope of event-stream-frames.ts.
 *
 * The upgrade answers everything a reader needs before its first event, so opening a feed is one
 * round trip: the task's meta rides on a header, and with `state=<kind>&key=<key>` the object also
 * returns that adapter-state entry (404 if there is none). Such an entry may describe a resumable
 * response stream: an `endSeq` in it is that stream's last event, so a resume at or past it is 410
 * and one before it is a plain body once that event is written. With `strict=1`, an `after` past the
 * log's end is a 416.
 */
import { encodeEventStreamChunk, type EventStreamView } from "./event-stream-frames";
import { encodeFeedMessages, FEED_META_HEADER, FEED_STATE_HEADER, type StreamEvent } from "./feed-frames";
import { replayPages } from "./replay";
import { closeQuietly, sendQuietly } from "./websockets";

export type FeedFormat = "lines" | "sse" | "sse-timing";

/** What a feed reads of the object that holds the log. */
export interface FeedSubject {
  view: EventStreamView;
  /** Sent to readers on the upgrade's header. */
  meta: unknown;
  /** Nothing live can follow (the task has ended). */
  ended: boolean;
  lastSeq(): number;
  eventsAfter(seq: number, limit: number): readonly StreamEvent[];
  lookupState(kind: string, key: string): Record<string, unknown> | undefined;
}

/** Socket tags, one per format ("feed" is the line form, as before formats existed). */
const FORMAT_TAGS: Record<FeedFormat, string> = { lines: "feed", sse: "feed-sse", "sse-timing": "feed-sse-t" };
const SSE_FORMATS = ["sse", "sse-timing"] as const;
const REPLAY_PAGE = 500;
/**
 * The readers' sockets close this long after the terminal event, not with it: 100 close handshakes
 * in the same turn held back the final event's own delivery (figures: docs/streams.md). Readers that
 * stop at the `result` event do not wait for the close.
 */
const CLOSE_AFTER_TERMINAL_MS = 100;

function feedFormat(value: string | null): FeedFormat {
  return value === "sse" || value === "sse-timing" ? value : "lines";
}

/** One message per page of events, in `format`. */
function encode(
  format: FeedFormat,
  events: readonly StreamEvent[],
  view: () => EventStreamView,
): (string | Uint8Array)[] {
  if (events.length === 0) return [];
  return format === "lines"
    ? encodeFeedMessages(events)
    : [encodeEventStreamChunk(events, view(), format === "sse-timing")];
}

/** The last event a resumable stream's state says it carries, if it names one. */
function endSeqOf(state: Record<string, unknown>): number | undefined {
  const endSeq = state["endSeq"];
  return typeof endSeq === "number" ? endSeq : undefined;
}

export function acceptFeedReader(
  ctx: DurableObjectState,
  request: Request,
  subject: FeedSubject | undefined,
): Response {
  const url = new URL(request.url);
  if (url.pathname !== "/feed") return new Response("Not found", { status: 404 });
  const upgrade = request.headers.get("Upgrade") === "websocket";
  if (!subject) return new Response("Not found", { status: 404 });
  const afterParam = Number(url.searchParams.get("after") ?? "0");
  const after = Number.isSafeInteger(afterParam) && afterParam >= 0 ? afterParam : 0;
  const headers = new Headers({ [FEED_META_HEADER]: encodeURIComponent(JSON.stringify(subject.meta)) });
  const kind = url.searchParams.get("state");
  const key = url.searchParams.get("key");
  if (kind !== null || url.searchParams.get("strict") === "1") {
    if (after > subject.lastSeq()) return new Response("No such event", { status: kind === null ? 416 : 404 });
  }
  let endSeq: number | undefined;
  if (kind !== null) {
    const state = key === null ? undefined : subject.lookupState(kind, key);
    if (!state) return new Response("No such state", { status: 404 });
    endSeq = endSeqOf(state);
    if (endSeq !== undefined && after >= endSeq) return new Response("Stream ended", { status: 410 });
    headers.set(FEED_STATE_HEADER, encodeURIComponent(JSON.stringify(state)));
  }
  const format = feedFormat(url.searchParams.get("format"));
  const view = () => subject.view;
  // A stream ends with its terminal event; what a task logs after it (webhook deliveries) is
  // read by resuming after that event.
  const replay = (send: (message: string | Uint8Array) => void, pageSize = REPLAY_PAGE) =>
    replayPages(
      (seq, limit) => subject.eventsAfter(seq, limit),
      after,
      pageSize,
      (page) => {
        const end = page.findIndex((event) => event.type === "result");
        for (const message of encode(format, end < 0 ? page : page.slice(0, end + 1), view)) send(message);
        return end < 0;
      },
    );
  // Nothing live can follow (the task ended, or the resumed stream's last event is written), or
  // only the replay was asked for: the replay is the whole answer, as a plain response.
  if (!upgrade || subject.ended || (endSeq !== undefined && subject.lastSeq() >= endSeq)) {
    if (format !== "lines") {
      // One envelope: the reader filters it by sequence number as a whole.
      let body: Uint8Array | undefined;
      replay((message) => (body = message as Uint8Array), Number.MAX_SAFE_INTEGER);
      return new Response(body ?? encodeEventStreamChunk([], view(), false), { status: 200, headers });
    }
    const parts: string[] = [];
    replay((message) => parts.push(message as string));
    return new Response(parts.join("\n"), { status: 200, headers });
  }
  const pair = new WebSocketPair();
  const [client, server] = [pair[0], pair[1]];
  ctx.acceptWebSocket(server, [FORMAT_TAGS[format]]);
  // Replay and live sends happen in this one synchronous turn, so no event falls between them.
  replay((message) => server.send(message));
  return new Response(null, { status: 101, webSocket: client, headers });
}

/**
 * Collects the events committed in one turn of the object and sends them to the readers as one
 * message each: a job that finishes a step and reports progress commits twice in a row, and every
 * message costs each reader a WebSocket delivery, a write and a chunk through every proxy on the
 * way. They leave when the job next waits (its host calls flush() before a sleep), when a terminal
 * event comes, or at the latest on a zero-delay timer at the end of the turn (locally 2-3 ms later).
 */
export class FeedBroadcaster {
  private pending: StreamEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly view: () => EventStreamView,
  ) {}

  push(events: readonly StreamEvent[]): void {
    if (events.length === 0) return;
    this.pending.push(...events);
    // Nothing follows a terminal event to share its message: send it now.
    if (events.some((event) => event.type === "result")) this.flush();
    else this.timer ??= setTimeout(() => this.flush(), 0);
  }

  /** Sends what is pending now; called before a reader is accepted, whose replay already holds those events. */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    const events = this.pending;
    this.pending = [];
    broadcastToFeed(this.ctx, events, this.view);
  }

  /** Whether a reader is attached: what is pushed now reaches someone at once. */
  hasReaders(): boolean {
    return this.ctx.getWebSockets().length > 0;
  }

  /** Closes every reader; pending events are dropped (the task is gone). */
  close(reason: string): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = [];
    closeFeed(this.ctx, reason);
  }
}

/** Sends events to every reader: encoded once per format, one message per reader. */
function broadcastToFeed(ctx: DurableObjectState, events: StreamEvent[], view: () => EventStreamView): void {
  if (events.length === 0) return;
  for (const format of ["lines", ...SSE_FORMATS] as const) {
    const sockets = ctx.getWebSockets(FORMAT_TAGS[format]);
    if (sockets.length === 0) continue;
    const messages = encode(format, events, view);
    for (const ws of sockets) for (const message of messages) sendQuietly(ws, message);
  }
  if (events.some((event) => event.type === "result"))
    setTimeout(() => closeFeed(ctx, "terminal"), CLOSE_AFTER_TERMINAL_MS);
}

/** Closes every reader, whatever its format (the object holds no other sockets). */
export function closeFeed(ctx: DurableObjectState, reason: string): void {
  for (const ws of ctx.getWebSockets()) closeQuietly(ws, 1000, reason);
}
