/**
 * The plain HTTP view of a task, for dashboards, scripts and webhook receivers:
 * `GET /tasks/{id}` (JSON) and `GET /tasks/{id}/events` (SSE of the event log, then live).
 */
import { Hono, type Context } from "hono";
import { TaskGateway } from "../core/gateway";
import { isTaskId } from "../core/ids";
import { taskDocument } from "../protocol/task-document";
import { parseEventId, RAW_STREAM } from "../streams/event-ids";
import { completeSseResponse, SseStream } from "../streams/sse";
import type { AppEnv } from "./env";

const notFound = () => Response.json({ error: "not_found", message: "No such task. Tasks are deleted once their ttl has passed." }, { status: 404 });

export const taskRoutes = new Hono<AppEnv>();

const gatewayOf = (c: Context<AppEnv>) => new TaskGateway(c.env, c.get("settings"), c.get("principal"));

taskRoutes.get("/:taskId", async (c) => {
  const taskId = c.req.param("taskId");
  if (!isTaskId(taskId)) return notFound();
  const snapshot = await gatewayOf(c).get(taskId);
  return snapshot ? c.json(taskDocument(snapshot)) : notFound();
});

taskRoutes.get("/:taskId/events", async (c) => {
  const taskId = c.req.param("taskId");
  if (!isTaskId(taskId)) return notFound();
  const lastEventId = c.req.header("Last-Event-ID") ?? c.req.query("lastEventId");
  let afterSeq = 0;
  if (lastEventId !== undefined && lastEventId !== "") {
    const route = parseEventId(lastEventId);
    if (route?.kind !== "task" || route.taskId !== taskId || route.stream !== RAW_STREAM) {
      return c.json({ error: "bad_last_event_id", message: "Last-Event-ID is not an event id of this task's event stream; reconnect without it to replay from the start." }, 400);
    }
    afterSeq = route.seq;
  }
  // The isolate's readers of this task share one socket to its object (event-stream-hub.ts); a
  // reader that joins fetches only the replay of what it lacks, in one round trip.
  // `?timing=1` adds each event's commit time as a comment (for the benchmark; clients ignore comments).
  const format = c.req.query("timing") === "1" ? "sse-timing" : "sse";
  const joined = await gatewayOf(c).joinEvents(taskId, format, afterSeq);
  if (!joined.ok) {
    // An id past the end of the log was never issued: say so rather than wait for it.
    if (joined.status === 416) {
      return c.json({ error: "bad_last_event_id", message: "Last-Event-ID names an event this task never had; reconnect without it to replay from the start." }, 400);
    }
    if (joined.status >= 500) {
      return c.json({ error: "unavailable", message: "The task's storage could not be reached; try again." }, 503, { "Retry-After": "1" });
    }
    return notFound();
  }
  const retryMs = c.get("settings").pollIntervalMs;
  // The task has ended: the rest of its log at once, then the end of the stream.
  if (joined.complete) return completeSseResponse(joined.complete, { retryMs });
  const sse = new SseStream({ retryMs });
  c.req.raw.signal.addEventListener("abort", () => sse.close());
  // The reader writes its response from this request; it ends after the result (or when the task expires).
  c.executionCtx.waitUntil(joined.reader.pump(sse));
  return sse.response;
});
