/**
 * The reader's side of a TaskObject feed: a WebSocket to the object, exposed as an
 * async iterator of task events. The object replays events after `afterSeq`, then
 * streams live ones, and closes the socket after the terminal `result` event.
 */
import type { TaskEvent } from "./model";

export interface TaskFeed extends AsyncIterable<TaskEvent> {
  /** Wait at most `ms` for the next event; undefined on timeout, null once the feed has ended. */
  next(ms?: number): Promise<TaskEvent | null | undefined>;
  close(): void;
}

export interface FeedSource {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

export async function openTaskFeed(stub: FeedSource, afterSeq: number): Promise<TaskFeed | undefined> {
  const response = await stub.fetch(`https://task.internal/feed?after=${Math.max(0, Math.floor(afterSeq))}`, { headers: { Upgrade: "websocket" } });
  const ws = response.webSocket;
  if (!ws) return undefined;
  ws.accept();

  const buffered: TaskEvent[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  ws.addEventListener("message", (message) => {
    if (typeof message.data !== "string") return;
    try {
      buffered.push(JSON.parse(message.data) as TaskEvent);
    } catch {
      return;
    }
    notify();
  });
  const end = () => {
    ended = true;
    notify();
  };
  ws.addEventListener("close", end);
  ws.addEventListener("error", end);

  const next = async (ms?: number): Promise<TaskEvent | null | undefined> => {
    for (;;) {
      const event = buffered.shift();
      if (event) return event;
      if (ended) return null;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const woke = await new Promise<boolean>((resolve) => {
        wake = () => resolve(true);
        if (ms !== undefined) timer = setTimeout(() => resolve(false), Math.max(0, ms));
      });
      if (timer) clearTimeout(timer);
      if (!woke) {
        wake = undefined;
        return undefined;
      }
    }
  };

  return {
    next,
    close() {
      if (!ended) {
        ended = true;
        try {
          ws.close(1000, "reader done");
        } catch {
          // already closed
        }
        notify();
      }
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const event = await next();
        if (!event) return;
        yield event;
      }
    },
  };
}
