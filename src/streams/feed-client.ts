/**
 * The reader's side of a TaskObject feed: a WebSocket to the object, exposed as an
 * async iterator of task events. The object replays events after `afterSeq`, then
 * streams live ones, and closes the socket after the terminal `result` event.
 */
import { decodeFeedMessage, FEED_META_HEADER, FEED_STREAM_HEADER, type FeedEvent } from "./feed-frames";
import { isTaskId, taskObjectName } from "../core/ids";
import type { JsonObject } from "../core/model";
import type { StreamMeta } from "../core/task-storage";
import { closeQuietly } from "./websockets";

export interface TaskFeed extends AsyncIterable<FeedEvent> {
  /** The task's `_meta` (correlation id and the like) as the object held it when the feed opened. */
  readonly meta: JsonObject;
  /** The response stream named by `stream` when the feed was opened for a resume. */
  readonly stream?: StreamMeta;
  /** Every event this feed will give, when nothing live can follow (the object answered the replay alone). */
  readonly known?: readonly FeedEvent[];
  /** Wait at most `ms` for the next event; undefined on timeout, null once the feed has ended. */
  next(ms?: number): Promise<FeedEvent | null | undefined>;
  close(): void;
}

export interface FeedSource {
  fetch(input: string, init?: RequestInit): Promise<Response>;
}

export interface FeedOptions {
  /** Resume this response stream: the object checks that `afterSeq` is a point of it (404 / 410). */
  stream?: number;
  /** Refuse (416) an `afterSeq` past the end of the log instead of waiting for it. */
  strict?: boolean;
}

export type OpenFeed = { ok: true; feed: TaskFeed } | { ok: false; status: number };

/** The object answers a socket, or (nothing live to come) the replay as a plain body. */
type OpenSocket =
  | { ok: true; meta: JsonObject; stream?: StreamMeta; ws: WebSocket; replay?: undefined }
  | { ok: true; meta: JsonObject; stream?: StreamMeta; ws?: undefined; replay: Response }
  | { ok: false; status: number };

async function openSocket(stub: FeedSource, afterSeq: number, options: FeedOptions): Promise<OpenSocket> {
  let url = `https://task.internal/feed?after=${Math.max(0, Math.floor(afterSeq))}`;
  if (options.stream !== undefined) url += `&stream=${options.stream}`;
  if (options.strict) url += "&strict=1";
  const response = await stub.fetch(url, { headers: { Upgrade: "websocket" } });
  const meta = headerJson<JsonObject>(response, FEED_META_HEADER) ?? {};
  const stream = headerJson<StreamMeta>(response, FEED_STREAM_HEADER);
  const described = { meta, ...(stream !== undefined && { stream }) };
  if (response.status === 200) return { ok: true, ...described, replay: response };
  const ws = response.webSocket;
  if (!ws) return { ok: false, status: response.status === 101 ? 500 : response.status };
  // Binary messages (the event-stream view's bytes) as ArrayBuffers, not Blobs: no extra read per message.
  ws.binaryType = "arraybuffer";
  ws.accept();
  return { ok: true, ...described, ws };
}

/** Opens a feed in one round trip; the status says why not (404 no task or stream, 410 stream ended, 416 seq past the end). */
export async function openFeed(stub: FeedSource, afterSeq: number, options: FeedOptions = {}): Promise<OpenFeed> {
  const opened = await openSocket(stub, afterSeq, options);
  if (!opened.ok) return opened;
  if (opened.ws) return { ok: true, feed: feedOverSocket(opened.ws, opened.meta, opened.stream) };
  const events = decodeFeedMessage(await opened.replay.text());
  return { ok: true, feed: feedOverEvents(events, opened.meta, opened.stream) };
}

/** openFeed on the task `taskId` of `principal` (another principal's id names an empty object: 404). */
export async function openPrincipalFeed(env: Env, principal: string, taskId: string, afterSeq: number, options: FeedOptions = {}): Promise<OpenFeed> {
  if (!isTaskId(taskId)) return { ok: false, status: 404 };
  return openFeed(env.TASKS.getByName(taskObjectName(principal, taskId)), afterSeq, options);
}

export async function openTaskFeed(stub: FeedSource, afterSeq: number): Promise<TaskFeed | undefined> {
  const opened = await openFeed(stub, afterSeq);
  return opened.ok ? opened.feed : undefined;
}

function headerJson<T>(response: Response, name: string): T | undefined {
  const value = response.headers.get(name);
  if (value === null) return undefined;
  try {
    return JSON.parse(decodeURIComponent(value)) as T;
  } catch {
    return undefined;
  }
}

/** A feed whose events are all known: they, then the end. */
function feedOverEvents(events: FeedEvent[], meta: JsonObject, stream: StreamMeta | undefined): TaskFeed {
  const remaining = [...events];
  const next = async (): Promise<FeedEvent | null> => remaining.shift() ?? null;
  return {
    meta,
    ...(stream !== undefined && { stream }),
    known: events,
    next,
    close() {
      remaining.length = 0;
    },
    async *[Symbol.asyncIterator]() {
      for (let event = await next(); event; event = await next()) yield event;
    },
  };
}

function feedOverSocket(ws: WebSocket, meta: JsonObject, stream: StreamMeta | undefined): TaskFeed {
  const buffered: FeedEvent[] = [];
  let ended = false;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  ws.addEventListener("message", (message) => {
    if (typeof message.data !== "string") return;
    const events = decodeFeedMessage(message.data);
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

  const next = async (ms?: number): Promise<FeedEvent | null | undefined> => {
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
    meta,
    ...(stream !== undefined && { stream }),
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
        if (!event) return;
        yield event;
      }
    },
  };
}

export type { FeedEvent };
