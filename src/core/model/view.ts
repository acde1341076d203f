/** The task as clients see it (tasks/get, CreateTaskResult, notifications): its record plus a poll interval asked of `now`. */
import { plainText } from "./plain-text";
import { pollIntervalMs } from "./poll-interval";
import type { TaskRecord, TaskStatus } from "./record";

/** The wire view of a task: the fields of MCP's `Task`, era-neutral. */
export interface TaskView {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttl: number;
  pollInterval: number;
}

/** The task as it is shown at `now` (its poll interval depends on when it is asked: poll-interval.ts). */
export function toTaskView(record: TaskRecord, now: number): TaskView {
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage !== undefined && { statusMessage: plainText(record.statusMessage) }),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    ttl: record.ttlMs,
    pollInterval: pollIntervalMs(record, now),
  };
}

/** One page of a principal's task list, newest first. */
export interface TaskPage {
  tasks: TaskView[];
  nextCursor?: string;
}

/** An index row as the task console lists it: the task and the tool it runs. */
export interface TaskEntry {
  task: TaskView;
  tool: string;
}

export interface TaskEntryPage {
  entries: TaskEntry[];
  nextCursor?: string;
}
