/**
 * The plain HTTP view of a task, for dashboards, scripts and webhook receivers:
 * `GET /tasks/{id}` (JSON) and `GET /tasks/{id}/events` (SSE of the event log, then live).
 */
import { Hono } from "hono";
import { taskDocument, taskMeta } from "../tasks/document";
import { openPrincipalFeed } from "../tasks/feed-client";
import { TaskGateway } from "../tasks/gateway";
import { isTaskId } from "../tasks/ids";
import type { AppEnv } from "./env";
import { SseStream } from "./sse";

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
  // One round trip: the object checks the task and the resume point and answers with the feed.
  const opened = await openPrincipalFeed(c.env, c.get("principal"), taskId, afterSeq, { strict: true });
  if (!opened.ok) {
    // An id past the end of the log was never issued: say so rather than wait for it.
    if (opened.status === 416) {
      return c.json({ error: "bad_last_event_id", message: "Last-Event-ID names an event this task never had; reconnect without it to replay from the start." }, 400);
    }
    return notFound();
  }
  const { feed } = opened;
  const sse = new SseStream({ retryMs: c.get("settings").pollIntervalMs });
  sse.onClose(() => feed.close());
  c.req.raw.signal.addEventListener("abort", () => sse.close());
  // `?timing=1` adds each event's commit time as a comment (for the benchmark; clients ignore comments).
  const timing = c.req.query("timing") === "1";
  const meta = taskMeta(feed);
  const prefix = `id: t.${taskId}.0.`;
  c.executionCtx.waitUntil(
    (async () => {
      for await (const event of feed) {
        // The event's JSON text goes out as it came from the object; only status gains `_meta`.
        const data = event.type === "status" && meta ? JSON.stringify({ ...event.data, _meta: meta }) : event.rawData;
        if (timing) sse.comment(`at ${event.at}`);
        sse.sendFrame(`${prefix}${event.seq}\nevent: ${event.type}\ndata: ${data}\n\n`);
        if (event.type === "result") break;
      }
      sse.close();
    })(),
  );
  return sse.response;
});
