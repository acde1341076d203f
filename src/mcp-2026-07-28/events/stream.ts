/**
 * `events/stream` (push): one long-lived request per subscription. `notifications/events/active`
 * first (the position it starts from, and whether something was missed), then each matching
 * occurrence as `notifications/events/event`, a heartbeat carrying the cursor whenever the log is
 * quiet for EVENTS_HEARTBEAT_MS, `notifications/events/error` while the log cannot be reached, and
 * `notifications/events/terminated` when the stream ends for good. Every message is tagged with the
 * request's id. The stream follows its log by long polls (one Durable Object request per heartbeat
 * interval when quiet), so it holds no state a deploy could lose: a client resumes with its cursor.
 */
import * as z from "zod";
import { decodeCursor } from "../../events/cursor";
import { exhausted } from "../../events/errors";
import { abortableDelay } from "../../jobs/context";
import { occurrenceMessage, type ReadResult } from "../../events/read";
import { ErrorCode, HttpProtocolError } from "../../protocol/errors";
import type { JsonObject } from "../../json";
import type { Context20260728 } from "../context";
import { META } from "../protocol";
import { Arguments, Cursor, EventName, logFor, MaxAgeMs, parse, subject } from "./params";

const StreamParams = z.object({ name: EventName, arguments: Arguments, cursor: Cursor, maxAgeMs: MaxAgeMs }).loose();
/** Failed reads in a row before the stream gives up (about a minute with the waits between them). */
const MAX_FAILURES = 12;
const RETRY_MS = 5000;

export async function streamEvents(ctx: Context20260728, params: Record<string, unknown>): Promise<JsonObject> {
  const request = parse(StreamParams, "events/stream", params);
  const { type, args, after } = subject(request.name, request.arguments, request.cursor, "push");
  if (!ctx.output.canNotify)
    throw new HttpProtocolError(
      ErrorCode.InvalidRequest,
      "Not Acceptable: events/stream answers with an event stream; send Accept: application/json, text/event-stream.",
      406,
    );
  const log = logFor(ctx, type);
  const { heartbeatMs, maxStreams } = ctx.settings.events;
  const token = crypto.randomUUID();
  if (!(await log.openStream(ctx.principal, token, maxStreams)))
    throw exhausted(
      `this principal has ${maxStreams} events/stream requests open for "${type.name}", the most allowed.`,
      maxStreams,
    );
  const meta = { [META.subscriptionId]: ctx.requestId };
  const notify = (method: string, body: JsonObject) =>
    ctx.output.notify({ jsonrpc: "2.0", method: `notifications/events/${method}`, params: { ...body, _meta: meta } });
  const { signal } = ctx.output;
  const read = (position: typeof after, maxAgeMs?: number): Promise<ReadResult> =>
    log.read({
      name: type.name,
      principal: ctx.principal,
      args,
      after: position,
      ...(maxAgeMs !== undefined && { maxAgeMs }),
      maxEvents: 100,
    });
  try {
    let page = await read(after, request.maxAgeMs);
    ctx.output.stream();
    notify("active", { cursor: page.start, truncated: page.truncated });
    let failures = 0;
    while (!signal.aborted) {
      for (const occurrence of page.events) notify("event", occurrenceMessage(occurrence, true));
      const position = decodeCursor(page.cursor);
      try {
        if (!page.hasMore && !(await log.waitAfter(page.seq, heartbeatMs))) {
          await log.openStream(ctx.principal, token, maxStreams);
          notify("heartbeat", { cursor: page.cursor });
        }
        if (signal.aborted) break;
        page = await read(position);
        // The log moved past this stream's position (pruned, or begun again): say so, and go on.
        if (page.truncated) notify("active", { cursor: page.start, truncated: true });
        failures = 0;
      } catch (error) {
        console.error("events/stream read failed", type.name, error);
        if (++failures >= MAX_FAILURES) {
          notify("terminated", {
            error: {
              code: ErrorCode.InternalError,
              message: "The event log could not be reached; resume with the last cursor.",
            },
          });
          break;
        }
        notify("error", {
          error: {
            code: ErrorCode.InternalError,
            message: "The event log could not be reached for a moment; retrying.",
          },
        });
        // The wait ends early when the client leaves; the loop then sees the abort and stops.
        await abortableDelay(RETRY_MS, signal).catch(() => undefined);
        page = { ...page, events: [], hasMore: true };
      }
    }
  } finally {
    ctx.waitUntil(log.closeStream(ctx.principal, token));
  }
  return { _meta: meta };
}
