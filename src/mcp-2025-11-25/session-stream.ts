/**
 * A session's GET stream as SSE: the Worker holds the client's response and reads the
 * SessionObject over a hibernatable WebSocket, so the object can sleep between messages.
 * Event ids are `s.<sessionId>.<seq>`; for a session on 2025-11-25 a priming event (id, no data)
 * comes first so the client always has a point to resume from (the SessionObject decides).
 */
import * as z from "zod";
import { ErrorCode, jsonRpcErrorResponse } from "../protocol/errors";
import { sessionEventId } from "../streams/event-ids";
import { SseStream } from "../streams/sse";
import { closeQuietly } from "../streams/websockets";
import { SESSION_HEADER, sessionStub, type SessionBindings } from "./session";

export interface SessionStreamInput {
  env: SessionBindings;
  principal: string;
  sessionId: string;
  /** Resume after this sequence number; undefined opens the stream at its current end. */
  afterSeq?: number;
  /** The GET carried a Last-Event-ID this stream cannot replay: a reconnect of a stream that is gone. */
  unreplayable?: boolean;
  retryMs: number;
  /** Aborts when the client disconnects (with the enable_request_signal compatibility flag). */
  signal?: AbortSignal;
  waitUntil(promise: Promise<unknown>): void;
}

/** What the SessionObject sends its reader: one event of the log, or a probe of the reader. */
const FrameSchema = z.union([z.object({ seq: z.number(), data: z.string() }), z.object({ probe: z.literal(1) })]);

/**
 * A reconnect of a stream that cannot be resumed (a POST response's, another session's) while this
 * session's GET stream has a live reader: there is no further stream to offer, and 405 is the answer
 * clients take quietly for that (the SDKs before the "response received, do not resume" check send
 * such a GET after every POST stream with an id; a 409 they retry and report as an error).
 */
const noFurtherStream = (): Response =>
  jsonRpcErrorResponse(
    405,
    ErrorCode.InvalidRequest,
    "Method Not Allowed: the stream that Last-Event-ID names cannot be resumed (a POST response's stream ends with its response), and this session's GET stream is already open elsewhere: keep using that one.",
    { Allow: "POST, DELETE" },
  );

function refusal(status: number, resuming: boolean, unreplayable: boolean): Response {
  switch (status) {
    case 409:
      if (unreplayable) return noFurtherStream();
      return jsonRpcErrorResponse(
        409,
        ErrorCode.InvalidRequest,
        "Conflict: this session's GET stream is already open elsewhere. Resume it with Last-Event-ID to take it over, or keep using the open one.",
      );
    case 410:
      return jsonRpcErrorResponse(
        410,
        ErrorCode.InvalidRequest,
        "Gone: the events after that Last-Event-ID are no longer kept. Reconnect without Last-Event-ID and re-read the state you need.",
      );
    default:
      return resuming
        ? jsonRpcErrorResponse(
            404,
            ErrorCode.InvalidRequest,
            "Last-Event-ID names no event of this session's stream. Reconnect without Last-Event-ID.",
          )
        : jsonRpcErrorResponse(404, -32001, "Session not found: send initialize again to start a new one.");
  }
}

export async function openSessionStream(input: SessionStreamInput): Promise<Response> {
  const { sessionId, afterSeq } = input;
  const query = afterSeq === undefined ? "" : `?after=${afterSeq}`;
  const upgrade = await sessionStub(input.env, input.principal, sessionId).fetch(
    `https://session.internal/stream${query}`,
    { headers: { Upgrade: "websocket" } },
  );
  const ws = upgrade.webSocket;
  if (!ws) return refusal(upgrade.status, afterSeq !== undefined, input.unreplayable === true);
  ws.accept();

  const sse = new SseStream({ retryMs: input.retryMs, headers: { [SESSION_HEADER]: sessionId } });
  ws.addEventListener("message", (message) => {
    if (typeof message.data !== "string") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message.data);
    } catch {
      return;
    }
    const frame = FrameSchema.safeParse(parsed);
    if (!frame.success) return;
    if ("seq" in frame.data) sse.send({ id: sessionEventId(sessionId, frame.data.seq), data: frame.data.data });
    // The object asks whether this reader still exists: writing is how a dead client shows.
    else sse.comment("probe");
  });
  ws.addEventListener("close", () => sse.close());
  ws.addEventListener("error", () => sse.close());
  // A client that goes away closes the socket at once, so the object drops its reader.
  sse.onClose(() => closeQuietly(ws, 1000, "client gone"));
  // Without a signal, a dead client is noticed at the next write (a keepalive at the latest).
  input.signal?.addEventListener("abort", () => sse.close());
  input.waitUntil(new Promise<void>((resolve) => sse.onClose(resolve)));
  return sse.response;
}
