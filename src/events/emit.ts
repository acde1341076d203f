/**
 * Emitting an occurrence from Worker code (a route that received an upstream webhook, a cron, a
 * queue consumer) or from a job (`job.emit`): the payload is checked against the type's schema, the
 * occurrence is appended to its log once per `eventId` (an upstream's own id makes a redelivered
 * upstream webhook one occurrence), and the log delivers it to every matching subscription.
 */
import { isRecord, type JsonObject } from "../json";
import { servedEventTypes } from "./event-set";
import { eventLog, MISSING_BINDING, type EventsEnv } from "./event-logs";

export interface EmitOptions {
  /** Whose it is: required for `"owner"` types (only that principal sees it), ignored otherwise. */
  principal?: string;
  /** The dedup key; SHOULD be the upstream's stable id. Default: a new random id. */
  eventId?: string;
  /** When it occurred (default: now). */
  at?: Date | number;
}

export class EmitError extends Error {
  override readonly name = "EmitError";
}

const newEventId = (): string =>
  `evt_${[...crypto.getRandomValues(new Uint8Array(16))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;

/**
 * Emits an occurrence of event type `name`. Throws an EmitError when the type is unknown, the
 * payload does not match its schema, an owner type has no principal, or the EVENTS binding is missing.
 * @example
 * await emitEvent(env, "invoice.paid", { invoiceId, customer, amount }, { principal: owner, eventId: stripeEvent.id });
 */
export async function emitEvent(
  env: EventsEnv,
  name: string,
  data: unknown,
  options: EmitOptions = {},
): Promise<{ eventId: string; emitted: boolean }> {
  const type = servedEventTypes().find(name);
  if (!type)
    throw new EmitError(
      `No event type is named "${name}": define it with defineEvent and list it in the Worker's events.`,
    );
  const parsed = type.payloadSchema.safeParse(data);
  if (!parsed.success || !isRecord(parsed.data))
    throw new EmitError(
      `The payload of "${name}" does not match its schema: ${parsed.error?.issues[0]?.message ?? "not an object"}.`,
    );
  if (type.audience === "owner" && (options.principal === undefined || options.principal === ""))
    throw new EmitError(`"${name}" is seen only by its owner: pass { principal } to emitEvent.`);
  const log = eventLog(env, type, options.principal ?? "");
  if (!log) throw new EmitError(`Cannot emit "${name}": ${MISSING_BINDING}.`);
  const eventId = options.eventId ?? newEventId();
  if (eventId.length === 0 || eventId.length > 200) throw new EmitError("An eventId must have 1 to 200 characters.");
  const at = options.at === undefined ? Date.now() : new Date(options.at).getTime();
  const payload: JsonObject = parsed.data;
  const added = await log.append([{ eventId, name, at, data: payload }]);
  return { eventId, emitted: added > 0 };
}
