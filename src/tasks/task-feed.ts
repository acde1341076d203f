/**
 * The TaskObject's readers: each is a hibernatable WebSocket (`ctx.acceptWebSocket`), so a
 * task with waiting readers can be evicted from memory and still deliver its next event.
 * A reader gets the events after its `after` sequence number, then live ones; the socket
 * closes after the terminal `result` event. Messages are in the form of `feed-frames.ts`.
 *
 * The upgrade answers everything a reader needs before its first event, so opening a feed is
 * one round trip: the task's `_meta` rides on a header, and with `stream=<key>` the object also
 * checks a resume point of that response stream (404 unknown stream or seq, 410 stream ended)
 * and returns the stream's metadata. With `strict=1`, an `after` past the log's end is a 416.
 */
import { encodeFeedMessages, FEED_META_HEADER, FEED_STREAM_HEADER } from "./feed-frames";
import { isTerminal, type TaskEvent, type TaskRecord } from "./model";
import type { TaskStorage } from "./task-storage";

const FEED_TAG = "feed";
const REPLAY_PAGE = 500;

export function acceptFeedReader(ctx: DurableObjectState, request: Request, record: TaskRecord | undefined, storage: TaskStorage): Response {
  const url = new URL(request.url);
  if (url.pathname !== "/feed" || request.headers.get("Upgrade") !== "websocket") return new Response("Not found", { status: 404 });
  if (!record) return new Response("Not found", { status: 404 });
  const afterParam = Number(url.searchParams.get("after") ?? "0");
  const after = Number.isSafeInteger(afterParam) && afterParam >= 0 ? afterParam : 0;
  const headers = new Headers({ [FEED_META_HEADER]: encodeURIComponent(JSON.stringify(record.meta)) });
  const streamParam = url.searchParams.get("stream");
  if (streamParam !== null || url.searchParams.get("strict") === "1") {
    if (after > storage.lastSeq()) return new Response("No such event", { status: streamParam === null ? 416 : 404 });
  }
  if (streamParam !== null) {
    const key = Number(streamParam);
    const stream = Number.isSafeInteger(key) ? storage.stream(key) : undefined;
    if (!stream) return new Response("No such stream", { status: 404 });
    if (stream.endSeq !== undefined && after >= stream.endSeq) return new Response("Stream ended", { status: 410 });
    headers.set(FEED_STREAM_HEADER, encodeURIComponent(JSON.stringify(stream)));
  }
  const pair = new WebSocketPair();
  const [client, server] = [pair[0], pair[1]];
  ctx.acceptWebSocket(server, [FEED_TAG]);
  // Replay and live sends happen in this one synchronous turn, so no event falls between them.
  let sent = after;
  for (;;) {
    const page = storage.eventsAfter(sent, REPLAY_PAGE);
    for (const message of encodeFeedMessages(page)) server.send(message);
    if (page.length < REPLAY_PAGE) break;
    sent = page[page.length - 1]?.seq ?? sent;
  }
  if (isTerminal(record.status)) server.close(1000, "terminal");
  return new Response(null, { status: 101, webSocket: client, headers });
}

/** Sends the events of one commit to every reader: serialised once, one message per reader. */
export function broadcastToFeed(ctx: DurableObjectState, events: TaskEvent[]): void {
  if (events.length === 0) return;
  const sockets = ctx.getWebSockets(FEED_TAG);
  if (sockets.length > 0) {
    const messages = encodeFeedMessages(events);
    for (const ws of sockets) {
      try {
        for (const message of messages) ws.send(message);
      } catch {
        // a reader that went away is dropped by webSocketClose
      }
    }
  }
  if (events.some((event) => event.type === "result")) closeSockets(sockets, "terminal");
}

export function closeFeed(ctx: DurableObjectState, reason: string): void {
  closeSockets(ctx.getWebSockets(FEED_TAG), reason);
}

/** Complete the close handshake so the socket leaves getWebSockets() at once. */
export function completeClose(ws: WebSocket, code: number): void {
  try {
    ws.close(code === 1005 || code === 1006 ? 1000 : code, "closed");
  } catch {
    // already closed
  }
}

function closeSockets(sockets: WebSocket[], reason: string): void {
  for (const ws of sockets) {
    try {
      ws.close(1000, reason);
    } catch {
      // already closed
    }
  }
}
