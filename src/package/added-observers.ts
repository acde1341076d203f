/**
 * Observers a lane adds to every TaskObject of its isolate (the McpAgent lane's delivery to a
 * session's GET stream, src/adopt/mcp-agent-observer.ts), so the template's Worker never bundles
 * what only an adopter's lane needs. Added at module load, before the first TaskObject is built.
 */
import type { TaskObserver } from "../core";

const added: TaskObserver[] = [];

export function addTaskObserver(observer: TaskObserver): void {
  if (!added.includes(observer)) added.push(observer);
}

export const addedTaskObservers = (): readonly TaskObserver[] => added;
