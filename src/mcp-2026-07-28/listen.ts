/**
 * `subscriptions/listen` (basic/patterns/subscriptions.mdx, and the Tasks extension's `taskIds`):
 * acknowledged first with the filter this server honours, then `notifications/tasks` (the task as
 * `tasks/get` would answer) on every change of a listed task and `notifications/resources/updated`
 * for subscribed `task://` URIs, every message tagged with the subscription id.
 *
 * Changes come from each task's own feed (its TaskObject), not from an in-memory bus: a task runs in
 * another isolate than the one holding this stream. Only the caller's tasks are accepted; another
 * principal's id is simply not in the acknowledged filter. When every followed task has ended the
 * subscription closes gracefully with its result.
 */
import * as z from "zod";
import { parseTaskResourceUri, taskResourceUri, isTerminal, applyTaskEvent, type TaskSnapshot } from "../core";
import type { JsonObject } from "../json";
import type { Context20260728 } from "./context";
import { ErrorCode, invalidParams } from "../protocol/errors";
import { describeIssues } from "../protocol/params";
import { tasksExtensionRequired } from "./errors";
import { HttpProtocolError } from "../protocol/errors";
import { META } from "./protocol";
import { detailedTask, taskResultMeta } from "./task-wire";

/**
 * Tasks one subscription may follow; more are left out of the acknowledged filter (a client can open
 * another). Each costs the request two Durable Object calls (a read, a feed), and a Worker request on
 * the Free plan may make 50 subrequests.
 */
export const MAX_WATCHED_TASKS = 20;

const FilterSchema = z.object({
  notifications: z
    .object({
      toolsListChanged: z.boolean().optional(),
      promptsListChanged: z.boolean().optional(),
      resourcesListChanged: z.boolean().optional(),
      resourceSubscriptions: z.array(z.string().max(2048)).max(1000).optional(),
      taskIds: z.array(z.string().max(256)).max(1000).optional(),
    })
    .loose(),
});

interface Watch {
  snapshot: TaskSnapshot;
  notifyTask: boolean;
  notifyResource: boolean;
}

function parseFilter(params: Record<string, unknown>) {
  const parsed = FilterSchema.safeParse(params);
  if (parsed.success) return parsed.data.notifications;
  throw invalidParams(
    `Invalid params for subscriptions/listen: ${describeIssues(parsed.error.issues, 1) || "notifications is required"}.`,
  );
}

/** The caller's tasks among `ids`, at most MAX_WATCHED_TASKS; unknown and foreign ids are dropped. */
async function resolveTasks(ctx: Context20260728, ids: readonly string[]): Promise<Map<string, TaskSnapshot>> {
  const unique = [...new Set(ids)].slice(0, MAX_WATCHED_TASKS);
  const snapshots = await Promise.all(unique.map((id) => ctx.gateway.get(id)));
  const found = new Map<string, TaskSnapshot>();
  for (const snapshot of snapshots) if (snapshot) found.set(snapshot.task.taskId, snapshot);
  return found;
}

export async function listen(ctx: Context20260728, params: Record<string, unknown>): Promise<JsonObject> {
  const filter = parseFilter(params);
  if (!ctx.output.canNotify)
    throw new HttpProtocolError(
      ErrorCode.InvalidRequest,
      "Not Acceptable: subscriptions/listen answers with an event stream; send Accept: application/json, text/event-stream.",
      406,
    );
  if (filter.taskIds !== undefined && !ctx.envelope.tasks)
    throw tasksExtensionRequired("notifications/tasks (a taskIds filter) belong to the Tasks extension.");
  const uriTasks = (filter.resourceSubscriptions ?? []).flatMap((uri) => {
    const taskId = parseTaskResourceUri(uri);
    return taskId ? [taskId] : [];
  });
  const found = await resolveTasks(ctx, [...(filter.taskIds ?? []), ...uriTasks]);
  const watches = new Map<string, Watch>();
  for (const [taskId, snapshot] of found) {
    watches.set(taskId, {
      snapshot,
      notifyTask: filter.taskIds?.includes(taskId) ?? false,
      notifyResource: uriTasks.includes(taskId),
    });
  }
  const subscriptionMeta = { [META.subscriptionId]: ctx.requestId };
  const acknowledged: JsonObject = {
    ...(filter.taskIds !== undefined && {
      taskIds: [...watches].filter(([, watch]) => watch.notifyTask).map(([taskId]) => taskId),
    }),
    ...(filter.resourceSubscriptions !== undefined && {
      resourceSubscriptions: [...watches]
        .filter(([, watch]) => watch.notifyResource)
        .map(([taskId]) => taskResourceUri(taskId)),
    }),
  };
  ctx.output.stream();
  ctx.output.notify({
    jsonrpc: "2.0",
    method: "notifications/subscriptions/acknowledged",
    params: { notifications: acknowledged, _meta: subscriptionMeta },
  });

  const sendTask = (snapshot: TaskSnapshot) => {
    ctx.output.notify({
      jsonrpc: "2.0",
      method: "notifications/tasks",
      params: { ...detailedTask(snapshot), _meta: { ...taskResultMeta(snapshot), ...subscriptionMeta } },
    });
  };
  // The state as of now, so a change between the client's last tasks/get and this subscription is not missed.
  for (const watch of watches.values()) if (watch.notifyTask) sendTask(watch.snapshot);
  await Promise.all([...watches.values()].map((watch) => follow(ctx, watch, sendTask, subscriptionMeta)));
  return { _meta: subscriptionMeta };
}

/** Follows one task until it ends, its feed closes or the client leaves. */
async function follow(
  ctx: Context20260728,
  watch: Watch,
  sendTask: (snapshot: TaskSnapshot) => void,
  subscriptionMeta: JsonObject,
): Promise<void> {
  const { signal } = ctx.output;
  if (signal.aborted) return;
  const feed = await ctx.gateway.feed(watch.snapshot.task.taskId, watch.snapshot.lastSeq);
  if (!feed) return;
  const stop = () => feed.close();
  signal.addEventListener("abort", stop, { once: true });
  const uri = taskResourceUri(watch.snapshot.task.taskId);
  let snapshot = watch.snapshot;
  try {
    for await (const event of feed) {
      const next = applyTaskEvent(snapshot, event);
      if (next === snapshot) continue;
      snapshot = next;
      // A task ends with two events (its status, then its result): one notification, carrying the result.
      if (event.type === "status" && isTerminal(snapshot.task.status) && snapshot.outcome === undefined) continue;
      // A question comes with the status that says the task waits for it: one notification, after both.
      if (event.type === "question") continue;
      if (watch.notifyTask) sendTask(snapshot);
      if (watch.notifyResource)
        ctx.output.notify({
          jsonrpc: "2.0",
          method: "notifications/resources/updated",
          params: { uri, _meta: subscriptionMeta },
        });
    }
  } finally {
    signal.removeEventListener("abort", stop);
    feed.close();
  }
}
