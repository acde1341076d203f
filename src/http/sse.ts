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

export class SseStream {
  readonly response: Response;
  private readonly writer: WritableStreamDefaultWriter<Uint8Array>;
  private readonly encoder = new TextEncoder();
  private keepalive?: ReturnType<typeof setInterval>;
  private closedFlag = false;
  private readonly onCloseHandlers: (() => void)[] = [];

  constructor(init: { retryMs?: number; headers?: HeadersInit; keepaliveMs?: number } = {}) {
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    this.writer = writable.getWriter();
    const headers = new Headers(init.headers);
    headers.set("Content-Type", "text/event-stream");
    headers.set("Cache-Control", "no-cache, no-transform");
    headers.set("Connection", "keep-alive");
    this.response = new Response(readable, { status: 200, headers });
    // A reader that goes away makes writes fail: that is how a dropped client is noticed.
    this.writer.closed.then(() => this.markClosed(), () => this.markClosed());
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
    let frame = "";
    if (event.id !== undefined) frame += `id: ${event.id}\n`;
    if (event.event !== undefined) frame += `event: ${event.event}\n`;
    for (const line of event.data.split("\n")) frame += `data: ${line}\n`;
    this.write(`${frame}\n`);
  }

  comment(text: string): void {
    this.write(`: ${text.replace(/\n/g, " ")}\n\n`);
  }

  close(): void {
    if (this.closedFlag) return;
    this.markClosed();
    this.writer.close().catch(() => undefined);
  }

  private write(text: string): void {
    if (this.closedFlag) return;
    this.writer.write(this.encoder.encode(text)).catch(() => this.markClosed());
  }

  private markClosed(): void {
    if (this.closedFlag) return;
    this.closedFlag = true;
    if (this.keepalive) clearInterval(this.keepalive);
    for (const handler of this.onCloseHandlers.splice(0)) handler();
  }
}
