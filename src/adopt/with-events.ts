/**
 * `withEvents(types)`: the Events extension for an adopter's Worker, passed to
 * `durableTasks({ tools, events: withEvents([...]) })`. A value rather than a list so that the
 * extension's code is reached only through this import: a Worker that never imports it bundles none.
 */
import type { EventType } from "../events/event-type";
import { serveEvents } from "../package/serve-events";

export interface ServedEvents {
  readonly types: readonly EventType[];
  /** Records the types and serves the extension for this isolate (durableTasks calls it once). */
  serve(): void;
}

export function withEvents(types: readonly EventType[]): ServedEvents {
  return { types, serve: () => serveEvents(types) };
}
