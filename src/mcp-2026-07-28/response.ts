/**
 * The answer to one 2026-07-28 request: a single JSON body, upgraded to an SSE stream the moment
 * the handler sends a notification related to the request (progress, a log line, a subscription's
 * messages). The stream carries no event ids: 2026-07-28 streams are not resumable. The client
 * closing the stream, or the request being aborted, is the request's cancellation.
 */
import { SseStream } from "../streams/sse";

export type JsonRpcMessage = Record<string, unknown>;

export interface Output20260728 {
  /** Whether a notification can still reach the client (it accepts SSE and has not left). */
  readonly canNotify: boolean;
  notify(message: JsonRpcMessage): void;
  /** Switch to SSE now (a subscription stream), even before the first notification. */
  stream(): void;
  /** Aborts when the client goes away: closes the stream or drops the request. */
  readonly signal: AbortSignal;
}

const SSE_HEADERS = { "X-Accel-Buffering": "no" };

export class RequestOutput implements Output20260728 {
  private sse?: SseStream;
  private readonly controller = new AbortController();
  private markUpgraded: () => void = () => undefined;
  /** Resolves when the answer became a stream. */
  readonly upgraded: Promise<"upgraded">;

  constructor(
    private readonly acceptsSse: boolean,
    requestSignal: AbortSignal,
    private readonly keepaliveMs?: number,
  ) {
    this.upgraded = new Promise((resolve) => (this.markUpgraded = () => resolve("upgraded")));
    if (requestSignal.aborted) this.controller.abort();
    else requestSignal.addEventListener("abort", () => this.controller.abort(), { once: true });
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get canNotify(): boolean {
    return this.acceptsSse && !this.controller.signal.aborted;
  }

  get response(): Response | undefined {
    return this.sse?.response;
  }

  stream(): void {
    if (this.sse || !this.acceptsSse) return;
    this.sse = new SseStream({
      headers: SSE_HEADERS,
      ...(this.keepaliveMs !== undefined && { keepaliveMs: this.keepaliveMs }),
    });
    this.sse.onClose(() => this.controller.abort());
    this.markUpgraded();
  }

  notify(message: JsonRpcMessage): void {
    if (!this.canNotify) return;
    this.stream();
    this.sse?.send({ data: JSON.stringify(message) });
  }

  /** The last message of a streamed answer (the response), then the end of the stream. */
  finish(message: JsonRpcMessage): void {
    this.sse?.send({ data: JSON.stringify(message) });
    this.sse?.close();
  }

  /** Ends a stream without a response (the client left, or a subscription is dropped). */
  close(): void {
    this.sse?.close();
  }
}
