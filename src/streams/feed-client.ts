/**
 * The reader's side of a feed: a WebSocket to the object, exposed as an async iterator of
 * events. The object replays events after `afterSeq`, then streams live ones, and closes the
 * socket after the terminal `result` event. Events arrive as WireEvents; `decode` gives them
 * their type (the core's TaskEvent), and events it refuses are skipped.
 */
import { isRecord } from "../json";
import { decodeFeedMessage, FEED_META_HEADER, FEED_STATE_HEADER, type WireEvent } from "./feed-frames";
import { closeQuietly } from "./websockets";

export interface Feed<E> extends AsyncIterable<E> {
  /** The upgrade's meta header as JSON (the task's meta), for the caller to parse. */
  readonly meta: unknown;
  /** The adapter-state entry named by `state` when the feed was opened for a resume. */
  readonly state?: Record<string, unknown>;
  /** Every event this feed will give, when nothing live can follow (the object answered the replay alone). */
  readonly known?: readonly E[];
  /** Wait at most `ms` for the next event; undefined on timeout, null once the feed has ended. */
  next(ms?: number): Promise<E | null | undefined>;
  close(): void;
}

export interface FeedSource {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

export interface FeedOptions {
  /** Return this adapter-state entry with the feed (404 without one; 410 past its `endSeq`). */
  state?: { kind: string; key: string };
  /** Refuse (416) an `afterSeq` past the end of the log instead of waiting for it. */
  strict?: boolean;
}

export type OpenFeed<E> = { ok: true; feed: Feed<E> } | { ok: false; status: number };

export type Decode<E> = (event: WireEvent) => E | undefined;

/** The object answers a socket, or (nothing live to come) the replay as a plain body. */
type OpenSocket =
  | { ok: true; meta: unknown; state?: Record<string, unknown>; ws: WebSocket; replay?: undefined }
  | { ok: true; meta: unknown; state?: Record<string, unknown>; ws?: undefined; replay: Response }
  | { ok: false; status: number };

async function openSocket(stub: FeedSource, afterSeq: number, options: FeedOptions): Promise<OpenSocket> {
  let url = `https://task.internal/feed?after=${Math.max(0, Math.floor(afterSeq))}`;
  if (options.state !== undefined)
    url += `&state=${encodeURIComponent(options.state.kind)}&key=${encodeURIComponent(options.state.key)}`;
  if (options.strict) url += "&strict=1";
  const response = await stub.fetch(url, { headers: { Upgrade: "websocket" } });
  const meta = headerJson(response, FEED_META_HEADER) ?? {};
  const state = headerJson(response, FEED_STATE_HEADER);
  const described = { meta, ...(isRecord(state) && { state }) };
  if (response.status === 200) return { ok: true, ...described, replay: response };
  const ws = response.webSocket;
  if (!ws) return { ok: false, status: response.status === 101 ? 500 : response.status };
  // Binary messages (the event-stream view's bytes) as ArrayBuffers, not Blobs: no extra read per message.
  ws.binaryType = "arraybuffer";
  ws.accept();
  return { ok: true, ...described, ws };
}

/** Opens a feed in one round trip; the status says why not (404 no log or state, 410 stream ended, 416 seq past the end). */
export async function openFeed<E>(
  stub: FeedSource,
  afterSeq: number,
  decode: Decode<E>,
  options: FeedOptions = {},
): Promise<OpenFeed<E>> {
  const opened = await openSocket(stub, afterSeq, options);
  if (!opened.ok) return opened;
  if (opened.ws) return { ok: true, feed: feedOverSocket(opened.ws, decode, opened.meta, opened.state) };
  const events = decodeAll(await opened.replay.text(), decode);
  return { ok: true, feed: feedOverEvents(events, opened.meta, opened.state) };
}

function headerJson(response: Response, name: string): unknown {
  const value = response.headers.get(name);
  if (value === null) return undefined;
  try {
    return JSON.parse(decodeURIComponent(value));
  } catch {
    return undefined;
  }
}

function decodeAll<E>(message: string, decode: Decode<E>): E[] {
  const events: E[] = [];
  for (const wire of decodeFeedMessage(message)) {
    const event = decode(wire);
    if (event !== undefined) events.push(event);
  }
  return events;
}

/** A feed of events already in hand (nothing live can follow): they, then the end. */
export function feedOfEvents<E>(events: E[]): Feed<E> {
  return feedOverEvents(events, undefined, undefined);
}

/** A feed whose events are all known: they, then the end. */
function feedOverEvents<E>(events: E[], meta: unknown, state: Record<string, unknown> | undefined): Feed<E> {
  const remaining = [...events];
  const next = async (): Promise<E | null> => remaining.shift() ?? null;
  return {
    meta,
    ...(state !== undefined && { state }),
    known: events,
    next,
    close() {
      remaining.length = 0;
    },
    async *[Symbol.asyncIterator]() {
      for (let event = await next(); event !== null; event = await next()) yield event;
    },
  };
}

function feedOverSocket<E>(
  ws: WebSocket,
  decode: Decode<E>,
  meta: unknown,
  state: Record<string, unknown> | undefined,
): Feed<E> {
  const buffered: E[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  ws.addEventListener("message", (message) => {
    if (typeof message.data !== "string") return;
    const events = decodeAll(message.data, decode);
    if (events.length === 0) return;
    buffered.push(...events);
    notify();
  });
  const end = () => {
    ended = true;
    notify();
  };
  ws.addEventListener("close", end);
  ws.addEventListener("error", end);

  const next = async (ms?: number): Promise<E | null | undefined> => {
    for (;;) {
      if (buffered.length > 0) return buffered.shift() ?? null;
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
    meta,
    ...(state !== undefined && { state }),
    next,
    close() {
      if (!ended) {
        ended = true;
        closeQuietly(ws, 1000, "reader done");
        notify();
      }
    },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const event = await next();
        if (event === null || event === undefined) return;
        yield event;
      }
    },
  };
}
