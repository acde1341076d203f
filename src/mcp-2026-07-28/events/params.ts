/**
 * What every `events/*` request names: an event type this server serves (with the delivery mode
 * asked for) and arguments its schema accepts, checked before any log is touched.
 */
import * as z from "zod";
import { decodeCursor, type Position } from "../../events/cursor";
import { eventNotFound, forbidden, invalidEventParams, unsupported } from "../../events/errors";
import { isPerTaskPrincipal } from "../../core";
import type { DeliveryMode, EventType } from "../../events/event-type";
import { servedEventTypes } from "../../events/event-set";
import { eventLog, MISSING_BINDING } from "../../events/event-logs";
import type { JsonObject } from "../../json";
import { describeIssues } from "../../protocol/params";
import type { Context20260728 } from "../context";

export const EventName = z.string().min(1).max(100);
export const Arguments = z.record(z.string(), z.unknown()).optional();
export const Cursor = z.string().max(256).nullable().optional();
export const MaxAgeMs = z
  .number()
  .int()
  .min(0)
  .max(365 * 24 * 3600_000)
  .optional();

export function parse<T>(schema: z.ZodType<T>, method: string, params: unknown): T {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  throw invalidEventParams(`${method}: ${describeIssues(parsed.error.issues, 3)}.`);
}

export interface Subject {
  type: EventType;
  args: JsonObject;
  after: Position | null;
}

/** The event type, its checked arguments and the cursor of a request for `mode`. */
export function subject(name: string, rawArgs: unknown, cursor: unknown, mode: DeliveryMode): Subject {
  const type = servedEventTypes().find(name);
  if (!type) throw eventNotFound(name);
  if (!type.delivery.includes(mode))
    throw unsupported(
      `The event "${type.name}" is not offered by ${mode} delivery; it offers ${type.delivery.join(", ")}.`,
      {
        feature: "deliveryMode",
        value: mode,
      },
    );
  const parsed = type.argumentsSchema.safeParse(rawArgs ?? {});
  if (!parsed.success)
    throw invalidEventParams(
      `arguments do not match the inputSchema of "${type.name}": ${describeIssues(parsed.error.issues, 3)}.`,
    );
  const args: JsonObject = parsed.data;
  return { type, args, after: decodeCursor(cursor) };
}

/** The log of `type` for this caller, or a clear error when the Worker binds none. */
export function logFor(ctx: Context20260728, type: EventType) {
  // Where every caller is one principal, an owner's occurrences would be everyone's (core/model/per-task.ts).
  if (type.audience === "owner" && isPerTaskPrincipal(ctx.principal))
    throw forbidden(
      `"${type.name}" tells a caller of its own tasks, and this server has no sign-in, so it cannot tell whose they are. Follow a task by its id (tasks/get, or the task:// link its answer carried).`,
    );
  const log = eventLog(ctx.env, type, ctx.principal);
  if (!log) throw unsupported(`Events are not available: ${MISSING_BINDING}.`, { feature: "events" });
  return log;
}
