/**
 * What else hears about a task's events once they are stored: each observer is told
 * after the TaskObject commits. Add an observer here rather than editing the TaskObject.
 * Observers must not throw (failures are logged) and must not delay the task itself.
 */
import type { TaskEvent, TaskRecord } from "./model";
import { webhookObserver } from "../webhooks/webhook-observer";
import { sessionObserver } from "../sessions/session-observer";
import { transitionLogObserver } from "./transition-log";

export interface TaskObserverContext {
  env: Env;
  record: TaskRecord;
  /** The events just appended, in order. */
  events: TaskEvent[];
  /** Sessions subscribed to this task (resources/subscribe), by session id. */
  watchers: string[];
}

export type TaskObserver = (context: TaskObserverContext) => Promise<void>;

export const taskObservers: TaskObserver[] = [webhookObserver, sessionObserver, transitionLogObserver];
