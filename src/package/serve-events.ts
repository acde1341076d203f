/**
 * Serving the Events extension (docs/events.md): the event types recorded for the isolate, the
 * `events/*` methods on the 2026-07-28 endpoint, the task observer that emits `fromTask` sources
 * (`task.status`), and `job.emit`. Called by createTaskWorker, and by durableTasks when an adopter
 * opts in: a Worker that never calls it bundles none of the extension's code.
 */
import type { EventType } from "../events/event-type";
import { recordEventTypes } from "../events/event-set";
import { jobEmitter } from "../events/job-emitter";
import { taskEventsObserver } from "../events/task-events";
import { EVENTS } from "../mcp-2026-07-28/events/extension";
import { serveExtension } from "../mcp-2026-07-28/extension-methods";
import { addTaskObserver, setJobEmitter } from "./added-observers";

export function serveEvents(types: readonly EventType[]): void {
  recordEventTypes(types);
  serveExtension(EVENTS);
  addTaskObserver(taskEventsObserver);
  setJobEmitter(jobEmitter);
}
