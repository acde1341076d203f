/**
 * Server-Sent Events framing for one response: events with ids, a `retry:` hint,
 * and `: keepalive` comments so long streams survive idle proxies.
 */

export const KEEPALIVE_MS = 25_000;

export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

const encoder = new TextEncoder();

/** Any line break an SSE parser honours: CRLF, a lone CR or a lone LF (WHATWG HTML, "Parsing an event stream"). */
const LINE_BREAK = /\r\n|\r|\n/;

/** Whether `text` holds a CR or LF (two scans: cheaper than a regex on the hot path of every frame). */
const hasLineBreak = (text: string): boolean => text.includes("\n") || text.includes("\r");

/** A field that must stay on one line: a line break would end it early and start a field of its own. */
function singleLine(field: "id" | "event", value: string): string {
  if (hasLineBreak(value)) {
    throw new Error(`SSE ${field} must not contain a line break (CR or LF): ${JSON.stringify(value.slice(0, 80))}`);
  }
  return value;
}

/**
 * One SSE event as text. `data` may hold line breaks of any kind: each line becomes its own `data:`
 * line, so the client reads the same text back (with LF between lines). An `id` or `event` holding
 * a CR or LF is refused: there is no way to write one, and splitting it would forge fields.
 */
export function sseFrame(event: SseEvent): string {
  let frame = "";
  if (event.id !== undefined) frame += `id: ${singleLine("id", event.id)}\n`;
  if (event.event !== undefined) frame += `event: ${singleLine("event", event.event)}\n`;
  const { data } = event;
  if (!hasLineBreak(data)) return `${frame}data: ${data}\n\n`;
  for (const line of data.split(LINE_BREAK)) frame += `data: ${line}\n`;
  return `${frame}\n`;
}

/**
 * The response body pipe. In workerd an IdentityTransformStream is a native byte pipe: the runtime
 * pumps it to the socket without running JavaScript per chunk (a JS TransformStream's pump showed
 * up in profiles of many readers: docs/streams.md). Elsewhere (unit tests on Node) a TransformStream.
 */
function byteStream(): { readable: ReadableStream<Uint8Array>; writable: WritableStream<Uint8Array> } {
  const Identity = (globalThis as { IdentityTransformStream?: new () => TransformStream<Uint8Array, Uint8Array> })
    .IdentityTransformStream;
  return Identity ? new Identity() : new TransformStream<Uint8Array, Uint8Array>();
}

const SSE_HEADERS = { "Content-Type": "text/event-stream", "Cache-Control": "no-cache, no-transform" };

/**
 * A whole event stream known at once (a replay with nothing live to follow): one plain body, so
 * the headers and every event leave together, with no pipe to pump and no keepalive to run.
 */
export function completeSseResponse(
  frames: string | Uint8Array,
  init: { retryMs?: number; headers?: HeadersInit } = {},
): Response {
  const headers = new Headers(init.headers);
  for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value);
  const retry = init.retryMs !== undefined ? `retry: ${Math.floor(init.retryMs)}\n\n` : "";
  const body =
    typeof frames === "string" ? retry + frames : retry === "" ? frames : concat(encoder.encode(retry), frames);
  return new Response(body, { status: 200, headers });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

export class SseStream {
  readonly response: Response;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private keepalive?: ReturnType<typeof setInterval>;
  private closedFlag = false;
  private readonly onCloseHandlers: (() => void)[] = [];
  /** One handler for every write's rejection (a busy stream writes often; no closure per write). */
  private readonly onWriteFailed = (): void => this.markClosed();
  /** Text written in this turn, sent as one chunk at its end (see write()). */
  private pending = "";

  constructor(init: { retryMs?: number; headers?: HeadersInit; keepaliveMs?: number } = {}) {
    const { readable, writable } = byteStream();
    this.writer = writable.getWriter();
    const headers = new Headers(init.headers);
    for (const [name, value] of Object.entries(SSE_HEADERS)) headers.set(name, value);
    headers.set("Connection", "keep-alive");
    this.response = new Response(readable, { status: 200, headers });
    // A reader that goes away makes writes fail: that is how a dropped client is noticed.
    this.writer.closed.then(
      () => this.markClosed(),
      () => this.markClosed(),
    );
    if (init.retryMs !== undefined) this.write(`retry: ${Math.floor(init.retryMs)}\n\n`);
    this.keepalive = setInterval(() => this.write(": keepalive\n\n"), init.keepaliveMs ?? KEEPALIVE_MS);
  }

  get closed(): boolean {
    return this.closedFlag;
  }

  /** Called once when the stream ends, whichever side ends it. */
  onClose(handler: () => void): void {
    if (this.closedFlag) handler();
    else this.onCloseHandlers.push(handler);
  }

  send(event: SseEvent): void {
    this.write(sseFrame(event));
  }

  /** A frame already in SSE form (from sseFrame, or built once for many readers). */
  sendFrame(frame: string): void {
    this.write(frame);
  }

  /**
   * Bytes already in SSE form (framed once for many readers): written now, after anything pending,
   * so a message that carries a whole commit leaves as one chunk without waiting for the turn to end.
   */
  sendBytes(bytes: Uint8Array): void {
    if (this.closedFlag || bytes.byteLength === 0) return;
    this.flush();
    this.writer.write(bytes).catch(this.onWriteFailed);
  }

  comment(text: string): void {
    this.write(`: ${text.replace(/[\r\n]/g, " ")}\n\n`);
  }

  close(): void {
    if (this.closedFlag) return;
    this.flush();
    this.markClosed();
    this.writer.close().catch(() => undefined);
  }

  /**
   * Frames written in one turn (a replay, an event and its timing comment, the events of one
   * commit) leave as one chunk: every chunk costs a write through the runtime, each proxy on
   * the way and the client's reader, so fewer chunks is most of what a busy stream costs.
   */
  private write(text: string): void {
    if (this.closedFlag) return;
    if (this.pending === "") queueMicrotask(() => this.flush());
    this.pending += text;
  }

  private flush(): void {
    if (this.pending === "" || this.closedFlag) return;
    const chunk = encoder.encode(this.pending);
    this.pending = "";
    this.writer.write(chunk).catch(this.onWriteFailed);
  }

  private markClosed(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    this.pending = "";
    if (this.keepalive) clearInterval(this.keepalive);
    for (const handler of this.onCloseHandlers.splice(0)) handler();
  }
}
