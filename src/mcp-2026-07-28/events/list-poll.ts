/**
 * `events/list` (the types this server serves, in pages) and `events/poll` (one subscription's
 * occurrences after its cursor; stateless: the cursor is the whole subscription).
 */
import * as z from "zod";
import { servedEventTypes } from "../../events/event-set";
import { invalidEventParams } from "../../events/errors";
import { occurrenceMessage } from "../../events/read";
import type { JsonObject } from "../../json";
import type { Context20260728 } from "../context";
import { Arguments, Cursor, EventName, logFor, MaxAgeMs, parse, subject } from "./params";

const PAGE = 50;
/** What a client that has caught up is told to wait before its next poll (the extension's floor is 1 s). */
export const NEXT_POLL_MS = 2000;

export async function listEvents(_ctx: Context20260728, params: Record<string, unknown>): Promise<JsonObject> {
  const { cursor } = parse(z.object({ cursor: z.string().max(32).optional() }).loose(), "events/list", params);
  const start = cursor === undefined ? 0 : /^\d{1,6}$/.test(cursor) ? Number(cursor) : -1;
  const types = servedEventTypes().list;
  if (start < 0 || start > types.length)
    throw invalidEventParams("events/list: cursor is not one this server gave out.");
  const page = types.slice(start, start + PAGE);
  return {
    events: page.map((type) => ({
      name: type.name,
      description: type.description,
      delivery: [...type.delivery],
      inputSchema: type.inputJsonSchema,
      payloadSchema: type.payloadJsonSchema,
    })),
    ...(start + PAGE < types.length && { nextCursor: String(start + PAGE) }),
  };
}

const PollParams = z
  .object({
    name: EventName,
    arguments: Arguments,
    cursor: Cursor,
    maxAgeMs: MaxAgeMs,
    maxEvents: z.number().int().min(1).max(1000).optional(),
  })
  .loose();

export async function pollEvents(ctx: Context20260728, params: Record<string, unknown>): Promise<JsonObject> {
  const request = parse(PollParams, "events/poll", params);
  const { type, args, after } = subject(request.name, request.arguments, request.cursor, "poll");
  const page = await logFor(ctx, type).read({
    name: type.name,
    principal: ctx.principal,
    args,
    after,
    ...(request.maxAgeMs !== undefined && { maxAgeMs: request.maxAgeMs }),
    maxEvents: request.maxEvents ?? 100,
  });
  return {
    events: page.events.map((occurrence) => occurrenceMessage(occurrence, false)),
    cursor: page.cursor,
    truncated: page.truncated,
    hasMore: page.hasMore,
    nextPollMs: page.hasMore ? 0 : NEXT_POLL_MS,
  };
}
