/**
 * Which log holds an event type's occurrences for a principal: one EventLogObject per type and
 * principal for `"owner"` types (a principal's log holds only what it may see, so no read ever
 * filters another's out), one per type for `"everyone"` types. The `EVENTS` binding reaches them.
 */
import type { EventLogObject } from "./event-log-object";
import type { EventType } from "./event-type";

export interface EventsEnv {
  EVENTS?: DurableObjectNamespace<EventLogObject>;
}

/** Where occurrences of `type` for `principal` are kept (`principal` unused for "everyone" types). */
export const eventLogName = (type: Pick<EventType, "name" | "audience">, principal: string): string =>
  JSON.stringify(type.audience === "owner" ? [type.name, principal] : [type.name]);

export const MISSING_BINDING =
  'this Worker binds no EVENTS Durable Object: add { "name": "EVENTS", "class_name": "EventLogObject" } to durable_objects.bindings (and EventLogObject to a migration\'s new_sqlite_classes), and export EventLogObject from the main module';

export function eventLog(env: EventsEnv, type: Pick<EventType, "name" | "audience">, principal: string) {
  if (env.EVENTS === undefined) return undefined;
  return env.EVENTS.getByName(eventLogName(type, principal));
}
