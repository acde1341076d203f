/**
 * The plain HTTP view of a task, for dashboards, scripts and webhook receivers:
 * `GET /tasks/{id}` (JSON) and `GET /tasks/{id}/events` (SSE of the event log, then live).
 */
import { Hono } from "hono";
import { taskDocument, taskMeta } from "../tasks/document";
import { TaskGateway } from "../tasks/gateway";
import { isTaskId } from "../tasks/ids";
import type { JsonObject } from "../tasks/model";
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
  const gateway = new TaskGateway(c.env, c.get("settings"), c.get("principal"));
  const snapshot = await gateway.get(taskId);
  if (!snapshot) return notFound();
  // An id past the end of the log was never issued: say so rather than wait for it.
  if (afterSeq > snapshot.lastSeq) {
    return c.json({ error: "bad_last_event_id", message: "Last-Event-ID names an event this task never had; reconnect without it to replay from the start." }, 400);
  }
  const feed = await gateway.feed(taskId, afterSeq);
  if (!feed) return notFound();
  const sse = new SseStream({ retryMs: c.get("settings").pollIntervalMs });
  sse.onClose(() => feed.close());
  c.req.raw.signal.addEventListener("abort", () => sse.close());
  // `?timing=1` adds each event's commit time as a comment (for the benchmark; clients ignore comments).
  const timing = c.req.query("timing") === "1";
  const meta = taskMeta(snapshot);
  c.executionCtx.waitUntil(
    (async () => {
      for await (const event of feed) {
        const data: JsonObject = event.type === "status" && meta ? { ...event.data, _meta: meta } : event.data;
        if (timing) sse.comment(`at ${event.at}`);
        sse.send({ id: `t.${taskId}.0.${event.seq}`, event: event.type, data: JSON.stringify(data) });
        if (event.type === "result") break;
      }
      sse.close();
    })(),
  );
  return sse.response;
});
