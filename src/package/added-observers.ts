/**
 * Observers a lane adds to every TaskObject of its isolate (the McpAgent lane's delivery to a
 * session's GET stream, src/adopt/mcp-agent-observer.ts), so the template's Worker never bundles
 * what only an adopter's lane needs. Added at module load, before the first TaskObject is built.
 */
import type { TaskObserver } from "../core";
import type { EventsEnv } from "../events/event-logs";
import type { JobEmitter } from "../jobs/emit";

const added: TaskObserver[] = [];

export function addTaskObserver(observer: TaskObserver): void {
  if (!added.includes(observer)) added.push(observer);
}

export const addedTaskObservers = (): readonly TaskObserver[] => added;

/** How a job's `job.emit` reaches the event logs, once the Worker serves events (serve-events.ts). */
let emitterFor: ((env: EventsEnv) => JobEmitter) | undefined;

export function setJobEmitter(factory: (env: EventsEnv) => JobEmitter): void {
  emitterFor = factory;
}

export const addedJobEmitter = (env: EventsEnv): JobEmitter | undefined => emitterFor?.(env);
