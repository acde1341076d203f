/**
 * Server-Sent Events read with fetch, not EventSource: EventSource cannot send the
 * `Authorization` header a server with API keys needs. The parser follows the HTML spec's
 * event-stream rules (fields, comments, CR/LF/CRLF line ends, `retry:`); no DOM here.
 */

export interface SseMessage {
  /** The last `id:` seen so far in the stream (ids carry over to later events, per the spec). */
  id?: string;
  event?: string;
  data: string;
}

export class SseParser {
  private buffer = "";
  private lastId: string | undefined;
  private event: string | undefined;
  private data: string[] = [];
  /** The reconnection delay the server asked for, if any. */
  retryMs: number | undefined;

  /** Feeds text (any split); returns the events it completed. */
  push(text: string): SseMessage[] {
    this.buffer += text;
    const out: SseMessage[] = [];
    for (;;) {
      const end = this.buffer.search(/\r\n|\r|\n/);
      // A lone CR at the very end may be the first half of a CRLF: wait for the next chunk.
      if (end < 0 || (this.buffer[end] === "\r" && end === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + (this.buffer.startsWith("\r\n", end) ? 2 : 1));
      const message = this.line(line);
      if (message) out.push(message);
    }
    return out;
  }

  private line(line: string): SseMessage | undefined {
    if (line === "") return this.dispatch();
    if (line.startsWith(":")) return undefined;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "data") this.data.push(value);
    else if (field === "event") this.event = value;
    else if (field === "id" && !value.includes("\0")) this.lastId = value;
    else if (field === "retry" && /^\d+$/.test(value)) this.retryMs = Number(value);
    return undefined;
  }

  private dispatch(): SseMessage | undefined {
    const { event, data } = this;
    this.event = undefined;
    this.data = [];
    if (data.length === 0) return undefined;
    return {
      data: data.join("\n"),
      ...(event !== undefined && { event }),
      ...(this.lastId !== undefined && { id: this.lastId }),
    };
  }
}

/** Reads a response body as SSE until it ends (an aborted fetch rejects instead). */
export async function readSse(
  body: ReadableStream<Uint8Array>,
  onMessage: (message: SseMessage) => void,
  parser = new SseParser(),
): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      for (const message of parser.push(decoder.decode(value, { stream: true }))) onMessage(message);
    }
  } finally {
    reader.releaseLock();
  }
}
