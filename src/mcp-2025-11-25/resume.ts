/**
 * GET /mcp. With `Last-Event-ID`, the id's own route says which stream to resume: a task
 * response stream (`t.<taskId>.<k>.<seq>`, replayed from the TaskObject's event log and
 * continued live until the response) or a session's GET stream (`s.<sessionId>.<seq>`).
 * Without it, or with an id no stream can replay (docs/streams.md), the caller's session's GET
 * stream opens fresh (Mcp-Session-Id required).
 */
import * as z from "zod";
import { isOpenAt, STATE_SPANS_FIELD, TaskGateway, type StateSpan, type TaskEvent } from "../core";
import { gatewayBindings } from "../principals/principal-indexes";
import type { McpRequest } from "../http/mcp-endpoint";
import { ErrorCode, jsonRpcErrorResponse } from "../protocol/errors";
import { parseEventId, taskEventId, type EventRoute } from "../streams/event-ids";
import { completeSseResponse, sseFrame, SseStream } from "../streams/sse";
import { SESSION_HEADER, checkSession, requireSession } from "./session";
import { openSessionStream } from "./session-stream";
import { messageForEvent } from "./task-messages";
import { ownSessionStream, RESPONSE_STREAM_STATE, ResponseStreamSchema } from "./task-streams";

const SpansSchema = z.array(z.tuple([z.number(), z.number().nullable()]));

const noSuchEvent = () =>
  jsonRpcErrorResponse(
    404,
    ErrorCode.InvalidRequest,
    "Last-Event-ID names no event of a stream you can resume (unknown, expired or another principal's task). Read the task with tasks/get instead.",
  );

export async function handleMcpGet(input: McpRequest): Promise<Response> {
  const { request } = input;
  if (!/text\/event-stream/i.test(request.headers.get("Accept") ?? "")) {
    return jsonRpcErrorResponse(
      406,
      ErrorCode.InvalidRequest,
      "Not Acceptable: GET /mcp opens an SSE stream; send Accept: text/event-stream.",
    );
  }
  const stream = { ...input, retryMs: input.settings.pollIntervalMs, signal: request.signal };
  const lastEventId = request.headers.get("Last-Event-ID");
  const route = lastEventId === null || lastEventId === "" ? undefined : parseEventId(lastEventId);
  if (route?.kind === "task") return resumeTaskStream(input, route);
  if (route?.kind === "session") {
    const session = await checkSession(request, input.env, input.principal);
    if (!session.ok) return session.response;
    if (session.sessionId === undefined || session.sessionId === route.sessionId) {
      return openSessionStream({ ...stream, sessionId: route.sessionId, afterSeq: route.seq });
    }
    // Another session's id (whoever's it is) replays nothing here: the caller's own session's stream, fresh.
    return openSessionStream({ ...stream, sessionId: session.sessionId, unreplayable: true });
  }
  if (lastEventId && request.headers.get(SESSION_HEADER) === null) {
    const message = "Bad Request: Last-Event-ID is not an event id this server issued. Reconnect without it.";
    return jsonRpcErrorResponse(400, ErrorCode.InvalidRequest, message);
  }
  // No id, or one no stream can replay (a POST stream's one-off `x.` id, an unknown form): a reconnect
  // of the session's GET stream that cannot resume, so it gets the session's stream fresh, not an error.
  const session = await requireSession(request, input.env, input.principal);
  if (!session.ok) return session.response;
  return openSessionStream({
    ...stream,
    sessionId: session.sessionId,
    unreplayable: lastEventId !== null && lastEventId !== "",
  });
}

/**
 * Replays a task response stream after `route.seq`, then follows it live until its response.
 * One round trip to the task: the feed's upgrade names the stream, and the object checks the
 * resume point and replays at once; the session check runs alongside it.
 */
async function resumeTaskStream(input: McpRequest, route: Extract<EventRoute, { kind: "task" }>): Promise<Response> {
  const { taskId, stream, seq } = route;
  const gateway = new TaskGateway(gatewayBindings(input.env), input.settings, input.principal);
  const [session, opened] = await Promise.all([
    checkSession(input.request, input.env, input.principal),
    gateway.openFeed(taskId, seq, { state: { kind: RESPONSE_STREAM_STATE, key: String(stream) } }),
    // The resume takes the stream over: the request that registered it (perhaps a dead connection
    // whose inline wait is still running) may no longer close it. Harmless on a stream already ended.
    gateway.renewState(taskId, RESPONSE_STREAM_STATE, String(stream)),
  ]);
  if (!session.ok || !opened.ok) {
    if (opened.ok) opened.feed.close();
    if (!session.ok) return session.response;
    if (!opened.ok && opened.status === 410) {
      return jsonRpcErrorResponse(
        410,
        ErrorCode.InvalidRequest,
        `Gone: that stream already ended (its request was answered with a link to the task). Read task://${taskId} or call tasks/result.`,
      );
    }
    return noSuchEvent();
  }
  const { feed } = opened;
  const registered = ResponseStreamSchema.safeParse(feed.state);
  if (!registered.success) {
    feed.close();
    return noSuchEvent();
  }
  const { endSeq } = registered.data;
  // A stream of the task's own session carries only what it was open for (the GET stream got the
  // rest). Only the server closes a stream (at its endSeq), never its client's leaving, and not once
  // a resume renewed it, so the spans the feed opened with hold for every event the stream carries.
  let spans: StateSpan[] | undefined;
  if (ownSessionStream(registered.data, feed.meta)) {
    const stored = SpansSchema.safeParse(feed.state?.[STATE_SPANS_FIELD]);
    spans = stored.success ? stored.data : [[0, null]];
  }
  const openSpans = spans;
  const target = {
    taskId,
    requestId: registered.data.requestId,
    meta: feed.meta,
    stream: registered.data,
    ...(openSpans && { openAt: (seq: number) => isOpenAt(openSpans, seq) }),
  };
  /** The event's frame, or "" for one the stream does not carry; undefined past the stream's end. */
  const frameOf = (event: TaskEvent): string | undefined => {
    if (endSeq !== undefined && event.seq > endSeq) return undefined;
    const message = messageForEvent(event, target);
    return message ? sseFrame({ id: taskEventId(taskId, stream, event.seq), data: JSON.stringify(message) }) : "";
  };
  const isLast = (event: TaskEvent) => event.type === "result" || (endSeq !== undefined && event.seq >= endSeq);
  if (feed.known) {
    // Nothing live can follow: the rest of the stream is one plain body.
    let frames = "";
    for (const event of feed.known) {
      const frame = frameOf(event);
      if (frame === undefined) break;
      frames += frame;
      if (isLast(event)) break;
    }
    return completeSseResponse(frames, { retryMs: input.settings.pollIntervalMs });
  }
  const sse = new SseStream({ retryMs: input.settings.pollIntervalMs });
  sse.onClose(() => feed.close());
  input.request.signal.addEventListener("abort", () => sse.close());
  input.waitUntil(
    (async () => {
      try {
        for await (const event of feed) {
          const frame = frameOf(event);
          if (frame === undefined) break;
          if (frame) sse.sendFrame(frame);
          if (isLast(event)) break;
        }
      } finally {
        // The client may leave again: the stream stays open for its next resume, as the first one did.
        feed.close();
        sse.close();
      }
    })(),
  );
  return sse.response;
}
