/**
 * The SSE form of a task's event log, as `GET /tasks/{id}/events` sends it: one frame per event,
 * `id: t.<taskId>.0.<seq>` (stream 0 is the raw log), `event: <type>`, the event's JSON as `data`,
 * status events carrying the task's `_meta`. The TaskObject builds these bytes once per commit and
 * sends the same bytes to every reader of this view, so a reader's Worker only copies them.
 *
 * Between the object and the Worker the frames travel in a small envelope that says where each
 * event's bytes end and which sequence number it has. A Worker serves all its readers of one task
 * from one socket (see event-stream-hub.ts), and readers join at different points of the log: with
 * the envelope each reader writes exactly the events after its own position, so a join, a replay
 * that overlaps live events, or a socket handed to another request never loses or repeats one.
 */
import { rawEventId } from "./event-ids";
import type { StreamEvent } from "./feed-frames";
import { sseFrame } from "./sse";

/** What every frame of one task's view shares. */
export interface EventStreamView {
  taskId: string;
  /** The `_meta` status events carry (the task's correlation id). */
  statusMeta?: Record<string, unknown>;
  /** The event types this view shows (all when absent); others keep their place in the log but send no frame. */
  shown?: ReadonlySet<string>;
}

/** A decoded envelope: the frames of some consecutive events. */
export interface EventStreamChunk {
  /** Each event's sequence number, ascending. */
  seqs: number[];
  /** Where each event's frame ends in `bytes`; event i spans [ends[i-1] ?? 0, ends[i]). */
  ends: number[];
  bytes: Uint8Array;
  /** The chunk holds the terminal `result` event, the last event of this view. */
  final: boolean;
}

const encoder = new TextEncoder();

function frame(event: StreamEvent, view: EventStreamView, timing: boolean): string {
  if (view.shown && !view.shown.has(event.type)) return "";
  const data =
    event.type === "status" && view.statusMeta ? Object.assign({}, event.data, { _meta: view.statusMeta }) : event.data;
  const at = timing ? `: at ${event.at}\n\n` : "";
  return at + sseFrame({ id: rawEventId(view.taskId, event.seq), event: event.type, data: JSON.stringify(data) });
}

/**
 * The frames of `events` in their envelope: a little-endian float64 header
 * `[count, final, seq₁, end₁, …]`, then the frames. Float64 holds any sequence number the event
 * ids allow (15 digits) exactly. With `timing`, each frame is preceded by `: at <commit time>`
 * (for the benchmark; clients ignore comments).
 */
export function encodeEventStreamChunk(
  events: readonly StreamEvent[],
  view: EventStreamView,
  timing: boolean,
): Uint8Array {
  const parts = events.map((event) => encoder.encode(frame(event, view, timing)));
  const headerBytes = 8 * (2 + 2 * events.length);
  const out = new Uint8Array(headerBytes + parts.reduce((sum, part) => sum + part.byteLength, 0));
  const header = new DataView(out.buffer);
  header.setFloat64(0, events.length, true);
  header.setFloat64(8, events.some((event) => event.type === "result") ? 1 : 0, true);
  let end = 0;
  events.forEach((event, i) => {
    out.set(parts[i]!, headerBytes + end);
    end += parts[i]!.byteLength;
    header.setFloat64(16 + 16 * i, event.seq, true);
    header.setFloat64(24 + 16 * i, end, true);
  });
  return out;
}

/** Reads an envelope; undefined when the bytes are not one (a truncated or foreign message). */
export function decodeEventStreamChunk(message: ArrayBuffer | Uint8Array): EventStreamChunk | undefined {
  const bytes = message instanceof Uint8Array ? message : new Uint8Array(message);
  if (bytes.byteLength < 16) return undefined;
  const header = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const count = header.getFloat64(0, true);
  const headerBytes = 8 * (2 + 2 * count);
  if (!Number.isSafeInteger(count) || count < 0 || headerBytes > bytes.byteLength) return undefined;
  const seqs: number[] = [];
  const ends: number[] = [];
  for (let i = 0; i < count; i++) {
    seqs.push(header.getFloat64(16 + 16 * i, true));
    ends.push(header.getFloat64(24 + 16 * i, true));
  }
  const payload = bytes.subarray(headerBytes);
  if (count > 0 && ends[count - 1] !== payload.byteLength) return undefined;
  return { seqs, ends, bytes: payload, final: header.getFloat64(8, true) === 1 };
}

/** The frames of the events after `position` (a view, not a copy), or undefined if there are none. */
export function framesAfter(chunk: EventStreamChunk, position: number): Uint8Array | undefined {
  const first = chunk.seqs.findIndex((seq) => seq > position);
  if (first < 0) return undefined;
  return first === 0 ? chunk.bytes : chunk.bytes.subarray(chunk.ends[first - 1]);
}

/** The last sequence number in the chunk, or `fallback` when it holds no event. */
export const lastSeqOf = (chunk: EventStreamChunk, fallback: number): number => chunk.seqs.at(-1) ?? fallback;
