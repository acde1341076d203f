/**
 * The event types a Worker serves, recorded once per isolate (like its tools: package/tool-set.ts),
 * the engine's own `task.status` first. The events' Durable Object reads them from here: it is
 * exported from the Worker's main module and cannot take them as a parameter.
 */
import type { EventType } from "./event-type";
import { taskStatusEvent } from "./task-status";

export interface EventTypes {
  readonly list: readonly EventType[];
  find(name: string): EventType | undefined;
}

function eventTypes(types: readonly EventType[]): EventTypes {
  const byName = new Map<string, EventType>();
  for (const type of types) {
    if (byName.has(type.name))
      throw new Error(`Two event types are named "${type.name}": each needs a name of its own.`);
    byName.set(type.name, type);
  }
  return { list: [...byName.values()], find: (name) => byName.get(name) };
}

let recorded: EventTypes = eventTypes([taskStatusEvent]);

/** Keeps `types` (besides `task.status`) for this isolate; a later call replaces the list. */
export function recordEventTypes(types: readonly EventType[]): EventTypes {
  recorded = eventTypes([taskStatusEvent, ...types]);
  return recorded;
}

export const servedEventTypes = (): EventTypes => recorded;
