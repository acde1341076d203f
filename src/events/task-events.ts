/**
 * Task status changes as event occurrences: the task observer that hands every event type with a
 * `fromTask` source (`task.status`, and the template's `deploy.finished`) each status change of each
 * task, and emits what they return for the task's owner. It runs after the change is stored, as the
 * other observers do: one call to each interested type's log per status change, nothing written in
 * the task. An occurrence's eventId is the task's event (`<taskId>.<seq>`), so a repeat is one occurrence.
 */
import { isPerTaskPrincipal, isTerminal, type TaskObserver, type TaskRecord } from "../core";
import type { TaskEvent } from "../core";
import { isRecord, type JsonObject } from "../json";
import { servedEventTypes } from "./event-set";
import { eventLog, type EventsEnv } from "./event-logs";
import type { TaskStatusChange } from "./event-type";

/** The status changes among `events`, given the status before them (none for a new task). */
export function statusChanges(
  record: TaskRecord,
  events: readonly TaskEvent[],
  previous: TaskRecord["status"] | undefined,
): { seq: number; change: TaskStatusChange }[] {
  const changes: { seq: number; change: TaskStatusChange }[] = [];
  let status = previous;
  const result = record.outcome?.kind === "result" ? record.outcome.result : undefined;
  for (const event of events) {
    if (event.type !== "status" || event.data.status === status) continue;
    status = event.data.status;
    changes.push({
      seq: event.seq,
      change: {
        taskId: record.taskId,
        tool: record.tool,
        args: record.args,
        status,
        ...(event.data.statusMessage !== undefined && { statusMessage: event.data.statusMessage }),
        lastUpdatedAt: new Date(event.at).toISOString(),
        ...(isTerminal(status) && result !== undefined && { result }),
      },
    });
  }
  return changes;
}

export const taskEventsObserver: TaskObserver<EventsEnv> = async ({ env, record, events, previousStatus }) => {
  if (env.EVENTS === undefined) return;
  const changes = statusChanges(record, events, previousStatus);
  if (changes.length === 0) return;
  const appends: Promise<number>[] = [];
  // Nobody may read an owner's occurrences where every caller is one principal (core/model/per-task.ts):
  // writing them would only load one log with every caller's changes.
  const ownerless = isPerTaskPrincipal(record.principal);
  for (const type of servedEventTypes().list) {
    if (type.fromTask === undefined || (ownerless && type.audience === "owner")) continue;
    const items = changes.flatMap(({ seq, change }) => {
      const parsed = type.payloadSchema.safeParse(type.fromTask?.(change));
      if (!parsed.success || !isRecord(parsed.data)) return [];
      const data: JsonObject = parsed.data;
      return [{ eventId: `${record.taskId}.${seq}`, name: type.name, at: Date.parse(change.lastUpdatedAt), data }];
    });
    const log = eventLog(env, type, record.principal);
    if (items.length > 0 && log) appends.push(log.append(items));
  }
  await Promise.all(appends);
};
