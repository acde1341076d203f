/**
 * A Transport (the SDK's seam between bytes and messages) for one HTTP POST: it hands
 * the POST's messages to a per-request SDK Server and collects what the server sends
 * back, either as one JSON body or as an SSE stream whose events carry routable ids.
 */
import type { Transport, TransportSendOptions } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode } from "../protocol/errors";
import type { SseStream } from "../streams/sse";
import { paramsProblem } from "./request-params";

/** Where a request's output goes. Handlers use it to send task events with routable event ids. */
export interface McpOutput {
  /** True when the response is an SSE stream (notifications can reach the client). */
  readonly streaming: boolean;
  /** Send a notification on the stream of request `requestId`, with an explicit event id. */
  notify(message: JSONRPCMessage, eventId?: string): void;
  /**
   * Send an event with an id and no data: a point the client can resume from. Only to clients whose
   * negotiated version defines priming events (2025-11-25); a no-op for older ones, whose SDKs parse
   * every event's data as JSON.
   */
  prime(eventId: string): void;
  /** Use `eventId` for the final response to `requestId` (so a resume ends at the right place). */
  setResponseEventId(requestId: RequestId, eventId: string): void;
  /** Whether the client is still reading. */
  readonly open: boolean;
  /** Run `handler` when the client stops reading (at once if it already has). */
  onClose(handler: () => void): void;
}

const isResponse = (message: JSONRPCMessage): message is JSONRPCMessage & { id: RequestId } =>
  "id" in message && ("result" in message || "error" in message) && !("method" in message);

export class RequestTransport implements Transport, McpOutput {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  sessionId?: string;

  private readonly pending = new Map<
    RequestId,
    { request: JSONRPCMessage & { id: RequestId }; resolve: (message: JSONRPCMessage) => void }
  >();
  private readonly responseEventIds = new Map<RequestId, string>();
  private readonly oneOffPrefix = `x.${crypto.randomUUID().replace(/-/g, "")}`;
  private counter = 0;

  private readonly primes: boolean;

  constructor(
    private readonly sse: SseStream | undefined,
    options: { primes: boolean; sessionId?: string },
  ) {
    this.sessionId = options.sessionId;
    this.primes = options.primes;
  }

  get streaming(): boolean {
    return this.sse !== undefined;
  }

  get open(): boolean {
    return this.sse ? !this.sse.closed : true;
  }

  onClose(handler: () => void): void {
    this.sse?.onClose(handler);
  }

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  /**
   * Deliver one client request and resolve with the server's response to it. The SDK parses the
   * params with its schema for the method and reports a mismatch as -32603; send() turns that into
   * -32602 naming the fields, so the params are parsed once on the way in, not twice.
   */
  dispatch(message: JSONRPCMessage & { id: RequestId }, extra?: MessageExtraInfo): Promise<JSONRPCMessage> {
    const reply = new Promise<JSONRPCMessage>((resolve) => this.pending.set(message.id, { request: message, resolve }));
    this.onmessage?.(message, extra);
    return reply;
  }

  /** Deliver a client notification or response (no reply expected). */
  deliver(message: JSONRPCMessage, extra?: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if (isResponse(message)) {
      const { id } = message;
      const pending = this.pending.get(id);
      let reply: JSONRPCMessage = message;
      if (
        pending &&
        "error" in message &&
        message.error.code === ErrorCode.InternalError &&
        "method" in pending.request
      ) {
        // A params schema mismatch is the one way the SDK answers a well-formed request like this before its handler runs.
        const problem = paramsProblem(pending.request);
        if (problem !== undefined)
          reply = { jsonrpc: "2.0", id, error: { code: ErrorCode.InvalidParams, message: problem } };
      }
      if (this.sse)
        this.sse.send({ id: this.responseEventIds.get(id) ?? this.nextOneOffId(), data: JSON.stringify(reply) });
      this.pending.delete(id);
      pending?.resolve(reply);
      return;
    }
    // Server notifications tied to a request go on that request's stream; others have nowhere to go here.
    if (this.sse && options?.relatedRequestId !== undefined) this.notify(message);
  }

  notify(message: JSONRPCMessage, eventId?: string): void {
    this.sse?.send({ id: eventId ?? this.nextOneOffId(), data: JSON.stringify(message) });
  }

  prime(eventId: string): void {
    if (this.primes) this.sse?.send({ id: eventId, data: "" });
  }

  setResponseEventId(requestId: RequestId, eventId: string): void {
    this.responseEventIds.set(requestId, eventId);
  }

  private nextOneOffId(): string {
    this.counter += 1;
    return `${this.oneOffPrefix}.${this.counter}`;
  }
}
