/**
 * The Worker's side of the `GET /tasks/{id}/events` view: the readers of one task in this isolate
 * share one hibernatable WebSocket to its TaskObject instead of holding one each, so a commit costs
 * the object one send and this isolate one message event however many readers wait (figures:
 * docs/streams.md).
 *
 * Workers forbid using one request's I/O objects from another request, so the socket belongs to
 * one reader's request (the hub's owner) and every reader writes its own response: the socket's
 * handler only queues each chunk and resolves the readers' waiting promises, and workerd runs
 * those continuations in the context of the request that made them. When the owner leaves, or the
 * socket is lost, another reader's request opens a new socket from the hub's position, and the
 * object replays what the old one had not delivered.
 *
 * Every chunk says which event each of its frames holds (event-stream-frames.ts), and each reader
 * writes only the events after its own position. That is what makes joining simple and exact: a
 * new reader registers first (from then on it queues every chunk the hub gets), fetches the replay
 * of what the hub delivered before it joined, and writes the replay, then its queue; overlaps are
 * dropped event by event, so nothing is lost or repeated.
 */
import { decodeEventStreamChunk, framesAfter, lastSeqOf, type EventStreamChunk } from "./event-stream-frames";
import { closeQuietly } from "./websockets";

export type EventStreamFormat = "sse" | "sse-timing";

/** What the hub uses of the socket a feed request upgrades to. */
export type HubSocket = Pick<WebSocket, "accept" | "addEventListener" | "close" | "binaryType">;

/** What the hub reads of a feed request's answer. */
export interface FeedAnswer {
  status: number;
  webSocket: HubSocket | null;
  arrayBuffer(): Promise<ArrayBuffer>;
}

/** What the hub needs of a TaskObject stub (the reader's own: stubs are I/O objects of its request). */
export interface EventStreamSource {
  fetch(input: string, init?: RequestInit): Promise<FeedAnswer>;
}

/** A reader's response. */
export interface EventStreamSink {
  readonly closed: boolean;
  sendBytes(bytes: Uint8Array): void;
  close(): void;
  onClose(handler: () => void): void;
}

/** A live reader; or, when nothing live can follow (the task has ended), the rest of the view at once. */
export type JoinedEventStream =
  | { ok: true; reader: EventStreamReader; complete?: undefined }
  | { ok: true; complete: Uint8Array }
  | { ok: false; status: number };

type Opened = { ok: true; finished?: EventStreamChunk } | { ok: false; status: number };

/**
 * A reader's response ends this long after the view's last event, not with it: ending 100
 * responses is 100 request completions on the same thread, and in the same turn they held back
 * the last event's own delivery to the later readers.
 */
const END_AFTER_FINAL_MS = 100;

/** Unexpected socket losses in a row (no message between) before the hub gives up and ends its readers. */
const MAX_RECONNECTS = 2;

const hubs = new Map<string, EventStreamHub>();

/** How many hubs this isolate holds (tests: a hub must not outlive its readers). */
export const openHubCount = (): number => hubs.size;

/**
 * Joins the readers of the task whose object is `objectName`, in `format`, at `afterSeq`. The status of a
 * refusal: 404 no such task, 416 `afterSeq` is past the end of the log, 5xx the object could not
 * be reached or answered nonsense.
 */
export async function joinEventStream(
  source: EventStreamSource,
  objectName: string,
  format: EventStreamFormat,
  afterSeq: number,
): Promise<JoinedEventStream> {
  const key = `${objectName}/${format}`;
  const existing = hubs.get(key);
  if (!existing) {
    // Listed only once open: a reader that comes while a socket opens opens one of its own rather
    // than await that opening, another request's I/O, which never settles if that request ends
    // first. The first open hub is the one later readers join (an extra socket, only at the start).
    const hub = new EventStreamHub(key, format, afterSeq);
    const reader = hub.add(source, afterSeq);
    const opened = await hub.open(reader);
    if (!opened.ok) return opened;
    if (opened.finished) return { ok: true, complete: framesAfter(opened.finished, afterSeq) ?? new Uint8Array() };
    if (!hubs.has(key)) hubs.set(key, hub);
    return { ok: true, reader };
  }
  const reader = existing.add(source, afterSeq);
  // The hub delivered events up to its position before this reader joined; fetch those it lacks.
  // (Past the position, the replay request is still made: it says whether the id was ever issued.)
  if (afterSeq !== existing.position) {
    const replay = await fetchReplay(source, format, afterSeq);
    if (!replay.ok || replay.chunk.final) {
      reader.stop();
      existing.remove(reader);
      return replay.ok ? { ok: true, complete: framesAfter(replay.chunk, afterSeq) ?? new Uint8Array() } : replay;
    }
    reader.prepend(replay.chunk);
  }
  return { ok: true, reader };
}

async function fetchReplay(
  source: EventStreamSource,
  format: EventStreamFormat,
  afterSeq: number,
): Promise<{ ok: true; chunk: EventStreamChunk } | { ok: false; status: number }> {
  try {
    const response = await source.fetch(`https://task.internal/feed?after=${afterSeq}&strict=1&format=${format}`);
    if (response.status !== 200) return { ok: false, status: response.status };
    const chunk = decodeEventStreamChunk(await response.arrayBuffer());
    return chunk ? { ok: true, chunk } : { ok: false, status: 502 };
  } catch {
    // The object could not be reached (reset, overloaded): the reader may retry.
    return { ok: false, status: 503 };
  }
}

/** One reader: its queue of chunks, its position, and the loop that writes them in its own request. */
export class EventStreamReader {
  private readonly queue: EventStreamChunk[] = [];
  private ended = false;
  private mustOpen = false;
  private wake: (() => void) | undefined;

  constructor(
    private readonly hub: EventStreamHub,
    readonly source: EventStreamSource,
    /** The last event this reader has (written, or had before it joined). */
    private position: number,
  ) {}

  push(chunk: EventStreamChunk): void {
    this.queue.push(chunk);
    this.notify();
  }

  /** The replay goes before whatever the hub queued while it was fetched. */
  prepend(chunk: EventStreamChunk): void {
    this.queue.unshift(chunk);
  }

  /** No more chunks will come: write what is queued, then end. */
  stop(): void {
    this.ended = true;
    this.notify();
  }

  /** Asks this reader's request to open the hub's next socket (its context is the one that may hold it). */
  takeOver(): void {
    this.mustOpen = true;
    this.notify();
  }

  /** Writes the reader's events into `sink` until the view ends or the sink closes; run it in the reader's request. */
  async pump(sink: EventStreamSink): Promise<void> {
    sink.onClose(() => this.stop());
    try {
      for (;;) {
        if (this.mustOpen && !this.ended) {
          this.mustOpen = false;
          await this.hub.open(this);
          continue;
        }
        const chunk = this.queue.shift();
        if (chunk) {
          const bytes = framesAfter(chunk, this.position);
          if (bytes) sink.sendBytes(bytes);
          this.position = Math.max(this.position, lastSeqOf(chunk, this.position));
          if (chunk.final) {
            await new Promise((resolve) => setTimeout(resolve, END_AFTER_FINAL_MS));
            return;
          }
          continue;
        }
        if (this.ended || sink.closed) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      this.ended = true;
      sink.close();
      this.hub.remove(this);
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

class EventStreamHub {
  readonly readers = new Set<EventStreamReader>();
  /** The last event the hub has handed to its readers. */
  position: number;
  /** The socket, held by the owner's request; undefined while the next one opens. */
  private socket: HubSocket | undefined;
  private owner: EventStreamReader | undefined;
  private reconnects = 0;
  /** The view ended (or the task is gone): readers finish what they have, and nobody reopens. */
  private ended = false;

  constructor(
    private readonly key: string,
    private readonly format: EventStreamFormat,
    position: number,
  ) {
    this.position = position;
  }

  add(source: EventStreamSource, afterSeq: number): EventStreamReader {
    const reader = new EventStreamReader(this, source, afterSeq);
    this.readers.add(reader);
    return reader;
  }

  /**
   * Opens a socket from the hub's position in `owner`'s request. Its replay and live chunks go to
   * every reader. A task with nothing live left answers with the rest of its events instead, and
   * a task that is gone (or a first position past the log's end) ends the readers.
   */
  async open(owner: EventStreamReader): Promise<Opened> {
    this.owner = owner;
    let response: FeedAnswer;
    try {
      response = await owner.source.fetch(
        `https://task.internal/feed?after=${this.position}&strict=1&format=${this.format}`,
        { headers: { Upgrade: "websocket" } },
      );
    } catch {
      response = { status: 503, webSocket: null, arrayBuffer: async () => new ArrayBuffer(0) };
    }
    const ws = response.webSocket;
    if (response.status === 200 || !ws) {
      const body = response.status === 200 ? await response.arrayBuffer().catch(() => undefined) : undefined;
      const chunk = body && decodeEventStreamChunk(body);
      this.end(chunk);
      return chunk
        ? { ok: true, finished: chunk }
        : { ok: false, status: response.status === 101 || response.status === 200 ? 502 : response.status };
    }
    ws.binaryType = "arraybuffer";
    ws.accept();
    this.socket = ws;
    ws.addEventListener("message", (message) => this.receive(ws, message.data));
    ws.addEventListener("close", (event) => this.lost(ws, event.code, event.reason));
    ws.addEventListener("error", () => this.lost(ws, 1006, ""));
    return { ok: true };
  }

  remove(reader: EventStreamReader): void {
    if (!this.readers.delete(reader) || reader !== this.owner) return;
    // The socket is this reader's request's I/O object: close it here, in that request. (A reader
    // asked to open the next socket that leaves before doing so passes the task on the same way.)
    this.retireSocket("reader done");
    this.handOver();
  }

  private receive(ws: HubSocket, data: unknown): void {
    if (ws !== this.socket || !(data instanceof ArrayBuffer)) return;
    const chunk = decodeEventStreamChunk(data);
    if (!chunk) return;
    if (chunk.seqs.length > 0) this.reconnects = 0;
    this.position = Math.max(this.position, lastSeqOf(chunk, this.position));
    for (const reader of this.readers) reader.push(chunk);
    // The view's last event: every reader ends with it; later readers get a finished task's replay.
    if (chunk.final) this.end(undefined);
  }

  private lost(ws: HubSocket, code: number, reason: string): void {
    if (ws !== this.socket) return;
    this.socket = undefined;
    // The object closes its readers when the task ends or expires: nothing more will come.
    if ((code === 1000 && (reason === "terminal" || reason === "expired")) || ++this.reconnects > MAX_RECONNECTS)
      this.end(undefined);
    else this.handOver(this.owner);
  }

  /**
   * Another reader's request opens the next socket; with no readers left the hub is gone. A socket
   * lost with its owner's request still listed prefers another reader: that request may be the
   * reason the socket went.
   */
  private handOver(avoid?: EventStreamReader): void {
    if (this.ended) return;
    let next: EventStreamReader | undefined;
    for (const reader of this.readers) {
      next = reader;
      if (reader !== avoid) break;
    }
    this.owner = next;
    if (next) next.takeOver();
    else this.forget();
  }

  /** Ends every reader (after `chunk`, the rest of the events, if given) and forgets the hub. */
  private end(chunk: EventStreamChunk | undefined): void {
    this.ended = true;
    this.retireSocket("done");
    for (const reader of this.readers) {
      if (chunk) reader.push(chunk);
      reader.stop();
    }
    this.forget();
  }

  /** Stops listening to the socket; closes it only when running in the owner's request (the callers ensure it). */
  private retireSocket(reason: string): void {
    const ws = this.socket;
    this.socket = undefined;
    if (ws) closeQuietly(ws, 1000, reason);
  }

  private forget(): void {
    if (hubs.get(this.key) === this) hubs.delete(this.key);
  }
}
