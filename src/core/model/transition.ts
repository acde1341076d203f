/**
 * What every transition of the state machine is made of (machine.ts, input-wait.ts): the next
 * record and the events it appends. A no-op returns the same record, so callers skip work by identity.
 */
import type { NewTaskEvent } from "./events";
import type { TaskRecord } from "./record";
import { toTaskView } from "./view";

export { holdsLease } from "./record";

export interface Transition {
  record: TaskRecord;
  events: NewTaskEvent[];
}

/** A status event shows the task as of the change that made it (its pollInterval at that moment). */
export const statusEvent = (record: TaskRecord): NewTaskEvent => ({
  type: "status",
  data: toTaskView(record, record.lastUpdatedAt),
});

export const unchanged = (record: TaskRecord): Transition => ({ record, events: [] });
