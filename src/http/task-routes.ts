/**
 * The plain HTTP view of a task, for dashboards, scripts and webhook receivers:
 * `GET /tasks/{id}` (JSON) and `GET /tasks/{id}/events` (SSE of the event log, then live).
 */
import { Hono } from "hono";
import { taskDocument } from "../tasks/document";
import { openEventStreamSocket } from "../tasks/feed-client";
import { TaskGateway } from "../tasks/gateway";
import { isTaskId } from "../tasks/ids";
import type { AppEnv } from "./env";
import { SseStream } from "./sse";
import { closeQuietly } from "../websockets";

/** Event ids of this view: `t.<taskId>.0.<seq>` (stream 0 is the raw event log). */
const EVENT_ID = /^t\.([0-9a-f]{32})\.0\.(\d{1,15})$/;

const notFound = () => Response.json({ error: "not_found", message: "No such task. Tasks are deleted once their ttl has passed." }, { status: 404 });

export const taskRoutes = new Hono<AppEnv>();


taskRoutes.get("/:taskId", async (c) => {
  const taskId = c.req.param("taskId");
  if (!isTaskId(taskId)) return notFound();
  const snapshot = await new TaskGateway(c.env, c.get("settings"), c.get("principal")).get(taskId);
  return snapshot ? c.json(taskDocument(snapshot)) : notFound();
});

taskRoutes.get("/:taskId/events", async (c) => {
  const taskId = c.req.param("taskId");
  if (!isTaskId(taskId)) return notFound();
  const lastEventId = c.req.header("Last-Event-ID") ?? c.req.query("lastEventId");
  let afterSeq = 0;
  if (lastEventId !== undefined && lastEventId !== "") {
    const match = EVENT_ID.exec(lastEventId);
    if (!match?.[2] || match[1] !== taskId) {
      return c.json({ error: "bad_last_event_id", message: "Last-Event-ID is not an event id of this task's event stream; reconnect without it to replay from the start." }, 400);
    }
    afterSeq = Number(match[2]);
  }
  // One round trip: the object checks the task and the resume point, replays, then sends live
  // events, each commit already framed as this view's SSE bytes.
  // `?timing=1` adds each event's commit time as a comment (for the benchmark; clients ignore comments).
  const opened = await openEventStreamSocket(c.env, c.get("principal"), taskId, afterSeq, { strict: true, timing: c.req.query("timing") === "1" });
  if (!opened.ok) {
    // An id past the end of the log was never issued: say so rather than wait for it.
    if (opened.status === 416) {
      return c.json({ error: "bad_last_event_id", message: "Last-Event-ID names an event this task never had; reconnect without it to replay from the start." }, 400);
    }
    return notFound();
  }
  const sse = new SseStream({ retryMs: c.get("settings").pollIntervalMs });
  const { ws, replay } = opened.source;
  if (!ws) {
    // The task has ended: the rest of its log at once, then the end of the stream.
    sse.sendBytes(new Uint8Array(replay));
    sse.close();
    return sse.response;
  }
  ws.addEventListener("message", (message) => {
    if (message.data instanceof ArrayBuffer) sse.sendBytes(new Uint8Array(message.data));
  });
  // The object closes the socket after the terminal event (or when the task expires).
  ws.addEventListener("close", () => sse.close());
  ws.addEventListener("error", () => sse.close());
  c.req.raw.signal.addEventListener("abort", () => sse.close());
  c.executionCtx.waitUntil(
    new Promise<void>((resolve) =>
      sse.onClose(() => {
        closeQuietly(ws, 1000, "reader done");
        resolve();
      }),
    ),
  );
  return sse.response;
});
