/**
 * GET /mcp. With `Last-Event-ID`, the id's own route says which stream to resume: a task
 * response stream (`t.<taskId>.<k>.<seq>`, replayed from the TaskObject's event log and
 * continued live until the response) or a session's GET stream (`s.<sessionId>.<seq>`).
 * Without it, the session's GET stream opens (Mcp-Session-Id required).
 */
import type { Settings } from "../config";
import { SseStream } from "../http/sse";
import { TaskGateway } from "../tasks/gateway";
import { jsonRpcErrorResponse } from "./endpoint";
import { parseEventId, taskEventId, type EventRoute } from "./event-ids";
import { SESSION_HEADER, checkSession, requireSession } from "./session";
import { openSessionStream } from "./session-stream";
import { messageForEvent } from "./task-messages";

export interface McpGetInput {
  request: Request;
  env: Env;
  settings: Settings;
  principal: string;
  waitUntil(promise: Promise<unknown>): void;
}

const noSuchEvent = () => jsonRpcErrorResponse(404, -32600, "Last-Event-ID names no event of a stream you can resume (unknown, expired or another principal's task). Read the task with tasks/get instead.");

export async function handleMcpGet(input: McpGetInput): Promise<Response> {
  const { request } = input;
  if (!/text\/event-stream/i.test(request.headers.get("Accept") ?? "")) {
    return jsonRpcErrorResponse(406, -32600, "Not Acceptable: GET /mcp opens an SSE stream; send Accept: text/event-stream.");
  }
  const lastEventId = request.headers.get("Last-Event-ID");
  if (lastEventId === null || lastEventId === "") {
    const session = await requireSession(request, input.env, input.principal);
    if (!session.ok) return session.response;
    return openSessionStream({ ...input, sessionId: session.sessionId, retryMs: input.settings.pollIntervalMs, signal: request.signal });
  }
  const route = parseEventId(lastEventId);
  if (!route) return jsonRpcErrorResponse(400, -32600, "Bad Request: Last-Event-ID is not an event id this server issued. Reconnect without it.");
  const session = await checkSession(request, input.env, input.principal);
  if (!session.ok) return session.response;
  if (route.kind === "session") {
    if (session.sessionId !== undefined && session.sessionId !== route.sessionId) {
      return jsonRpcErrorResponse(400, -32600, `Bad Request: Last-Event-ID belongs to another session's stream than the ${SESSION_HEADER} header names.`);
    }
    return openSessionStream({ ...input, sessionId: route.sessionId, afterSeq: route.seq, retryMs: input.settings.pollIntervalMs, signal: request.signal });
  }
  return resumeTaskStream(input, route);
}

/** Replays a task response stream after `route.seq`, then follows it live until its response. */
async function resumeTaskStream(input: McpGetInput, route: Extract<EventRoute, { kind: "task" }>): Promise<Response> {
  const gateway = new TaskGateway(input.env, input.settings, input.principal);
  const { taskId, stream, seq } = route;
  // One round trip: the feed is opened alongside the checks and dropped if they fail.
  const [meta, snapshot, feed] = await Promise.all([gateway.stream(taskId, stream), gateway.get(taskId), gateway.feed(taskId, seq)]);
  if (!meta || !snapshot || !feed || seq > snapshot.lastSeq) {
    feed?.close();
    return noSuchEvent();
  }
  const { endSeq } = meta;
  if (endSeq !== undefined && seq >= endSeq) {
    feed.close();
    return jsonRpcErrorResponse(410, -32600, `Gone: that stream already ended (its request was answered with a link to the task). Read task://${taskId} or call tasks/result.`);
  }
  const target = { taskId, requestId: meta.requestId, meta: snapshot.meta, ...(meta.progressToken !== undefined && { progressToken: meta.progressToken }) };
  const sse = new SseStream({ retryMs: input.settings.pollIntervalMs });
  sse.onClose(() => feed.close());
  input.request.signal.addEventListener("abort", () => sse.close());
  input.waitUntil(
    (async () => {
      try {
        for await (const event of feed) {
          if (endSeq !== undefined && event.seq > endSeq) break;
          const message = messageForEvent(event, target);
          if (message) sse.send({ id: taskEventId(taskId, stream, event.seq), data: JSON.stringify(message) });
          if (event.type === "result" || (endSeq !== undefined && event.seq >= endSeq)) break;
        }
      } finally {
        feed.close();
        sse.close();
      }
    })(),
  );
  return sse.response;
}
