/**
 * The TaskObject's readers: each is a hibernatable WebSocket (`ctx.acceptWebSocket`), so a
 * task with waiting readers can be evicted from memory and still deliver its next event.
 * A reader gets the events after its `after` sequence number, then live ones; the socket
 * closes after the terminal `result` event.
 */
import { isTerminal, type TaskEvent, type TaskRecord } from "./model";
import type { TaskStorage } from "./task-storage";

const FEED_TAG = "feed";
const REPLAY_PAGE = 500;

export function acceptFeedReader(ctx: DurableObjectState, request: Request, record: TaskRecord | undefined, storage: TaskStorage): Response {
  const url = new URL(request.url);
  if (url.pathname !== "/feed" || request.headers.get("Upgrade") !== "websocket") return new Response("Not found", { status: 404 });
  if (!record) return new Response("Not found", { status: 404 });
  const after = Number(url.searchParams.get("after") ?? "0");
  const pair = new WebSocketPair();
  const [client, server] = [pair[0], pair[1]];
  ctx.acceptWebSocket(server, [FEED_TAG]);
  // Replay and live sends happen in this one synchronous turn, so no event falls between them.
  let sent = Number.isSafeInteger(after) && after >= 0 ? after : 0;
  for (;;) {
    const page = storage.eventsAfter(sent, REPLAY_PAGE);
    for (const event of page) server.send(JSON.stringify(event));
    if (page.length < REPLAY_PAGE) break;
    sent = page[page.length - 1]?.seq ?? sent;
  }
  if (isTerminal(record.status)) server.close(1000, "terminal");
  return new Response(null, { status: 101, webSocket: client });
}

export function broadcastToFeed(ctx: DurableObjectState, events: TaskEvent[]): void {
  if (events.length === 0) return;
  const sockets = ctx.getWebSockets(FEED_TAG);
  for (const event of events) {
    const frame = JSON.stringify(event);
    for (const ws of sockets) {
      try {
        ws.send(frame);
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
