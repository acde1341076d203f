/**
 * The plain HTTP view of tasks, for the task console, dashboards, scripts and webhook receivers:
 * `GET /tasks` (the caller's tasks, newest first, cursor pages), `GET /tasks/{id}` (JSON),
 * `GET /tasks/{id}/events` (SSE of the event log, then live), `POST /tasks/{id}/cancel` and
 * `POST /tasks/{id}/input` (answers to its questions, task-input.ts) and `POST
 * /tasks/{id}/callbacks/{name}` (its owner completing a job's callback, callback-route.ts).
 */
import { Hono, type Context } from "hono";
import { TaskGateway, isPerTaskPrincipal, isTaskId, PER_TASK_NO_LISTING } from "../core";
import { gatewayBindings } from "../principals/principal-indexes";
import { taskDocument } from "../protocol/task-document";
import { BAD_AFTER, parseAfter } from "../protocol/partial-output";
import { parseEventId, RAW_STREAM } from "../streams/event-ids";
import { completeSseResponse, SseStream } from "../streams/sse";
import type { TaskRoutesEnv } from "./env";
import { completeCallbackAsOwner } from "./callback-route";
import { answerTaskInput } from "./task-input";

const notFound = () =>
  Response.json(
    { error: "not_found", message: "No such task. Tasks are deleted once their ttl has passed." },
    { status: 404 },
  );

const methodNotAllowed = (allow: string) => () =>
  Response.json(
    { error: "method_not_allowed", message: `Use ${allow} here.` },
    { status: 405, headers: { Allow: allow } },
  );

export const DEFAULT_PAGE_SIZE = 50;
const LIMIT = /^(?:[1-9]\d?|100)$/;

export const taskRoutes = new Hono<TaskRoutesEnv>();

const gatewayOf = (c: Context<TaskRoutesEnv>) =>
  new TaskGateway(gatewayBindings(c.env), c.get("settings"), c.get("principal"));

taskRoutes.get("/", async (c) => {
  const limit = c.req.query("limit");
  if (limit !== undefined && !LIMIT.test(limit))
    return c.json({ error: "bad_limit", message: "limit must be a whole number from 1 to 100." }, 400);
  const cursor = c.req.query("cursor");
  const principal = c.get("principal");
  // Where every caller is one principal, its list would be everyone's tasks (core/model/per-task.ts).
  if (isPerTaskPrincipal(principal)) return c.json({ error: "listing_refused", message: PER_TASK_NO_LISTING }, 403);
  const page = await gatewayOf(c).listEntries(cursor, limit === undefined ? DEFAULT_PAGE_SIZE : Number(limit));
  if (!page)
    return c.json(
      {
        error: "bad_cursor",
        message:
          "cursor is not one this server issued: pass back a nextCursor from an earlier page unchanged, or leave it out for the first page.",
      },
      400,
    );
  return c.json({
    principal,
    // How often a view should look again: the page polls the first page at this interval.
    pollInterval: c.get("settings").pollIntervalMs,
    tasks: page.entries.map(({ task, tool }) => ({ ...task, tool })),
    ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
  });
});
taskRoutes.all("/", methodNotAllowed("GET"));

taskRoutes.post("/:taskId/cancel", async (c) => {
  const taskId = c.req.param("taskId");
  if (!isTaskId(taskId)) return notFound();
  const gateway = gatewayOf(c);
  const outcome = await gateway.cancel(taskId);
  if (outcome.ok) return c.json(taskDocument(outcome.snapshot));
  if (outcome.reason === "not_found") return notFound();
  const snapshot = await gateway.get(taskId);
  const status = snapshot?.task.status ?? "finished";
  return c.json(
    {
      error: "task_finished",
      message: `The task is already ${status}: only working or input_required tasks can be cancelled.`,
      ...(snapshot && { task: taskDocument(snapshot) }),
    },
    409,
  );
});
taskRoutes.all("/:taskId/cancel", methodNotAllowed("POST"));

taskRoutes.post("/:taskId/callbacks/:name", (c) =>
  completeCallbackAsOwner(c, (taskId, name, body) => gatewayOf(c).completeCallback(taskId, name, body)),
);
taskRoutes.all("/:taskId/callbacks/:name", methodNotAllowed("POST"));

taskRoutes.post("/:taskId/input", answerTaskInput);
taskRoutes.all("/:taskId/input", methodNotAllowed("POST"));

taskRoutes.get("/:taskId", async (c) => {
  const taskId = c.req.param("taskId");
  if (!isTaskId(taskId)) return notFound();
  // `?after=N`: only the partial pieces after N, so following a long task costs only what is new.
  const after = parseAfter(c.req.query("after"));
  if (after === "bad") return c.json({ error: "bad_after", message: BAD_AFTER }, 400);
  const snapshot = await gatewayOf(c).get(taskId, { piecesAfter: after ?? 0 });
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
      return c.json(
        {
          error: "bad_last_event_id",
          message:
            "Last-Event-ID is not an event id of this task's event stream; reconnect without it to replay from the start.",
        },
        400,
      );
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
      return c.json(
        {
          error: "bad_last_event_id",
          message: "Last-Event-ID names an event this task never had; reconnect without it to replay from the start.",
        },
        400,
      );
    }
    if (joined.status >= 500) {
      return c.json({ error: "unavailable", message: "The task's storage could not be reached; try again." }, 503, {
        "Retry-After": "1",
      });
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
