/**
 * What every transition of the state machine is made of (model.ts, input-model.ts): the next
 * record and the events it appends. A no-op returns the same record, so callers skip work by identity.
 */
import type { NewTaskEvent } from "./task-events";
import { isTerminal, toTaskView, type TaskRecord } from "./task-record";

export interface Transition {
  record: TaskRecord;
  events: NewTaskEvent[];
}

export const statusEvent = (record: TaskRecord): NewTaskEvent => ({ type: "status", data: toTaskView(record) });

export const unchanged = (record: TaskRecord): Transition => ({ record, events: [] });

/** The run holding `leaseId` is the live one: only it may end the run or renew the lease. */
export const holdsLease = (record: TaskRecord, leaseId: string): boolean =>
  !isTerminal(record.status) && record.run.phase === "running" && record.run.leaseId === leaseId;
