/**
 * One page of an event log for a reader (a poll, a stream's next turn): the occurrences after its
 * position that its subscription matches and its principal may see, in order, at most `maxEvents`,
 * with the cursor to resume from and whether more are waiting.
 */
import { isRecord, type JsonObject } from "../json";
import { encodeCursor, type Position } from "./cursor";
import type { EventType } from "./event-type";
import { startPosition } from "./log-position";
import type { OccurrenceLog } from "./occurrence-log";

export interface ReadQuery {
  name: string;
  principal: string;
  args: JsonObject;
  after: Position | null;
  maxAgeMs?: number;
  maxEvents: number;
}

/**
 * An occurrence as the wire shows it (`cursor`: the position after it, for push). Its payload
 * crosses the Durable Object boundary as the JSON text it was stored as (RPC's types cannot carry
 * an object of unknown values), and is sent on as it is.
 */
export interface WireOccurrence {
  eventId: string;
  name: string;
  timestamp: string;
  data: string;
  cursor: string;
}

export interface ReadResult {
  /** Where this read started: the position a stream's `active` notification names. */
  start: string;
  events: WireOccurrence[];
  cursor: string;
  truncated: boolean;
  hasMore: boolean;
  /** The position `cursor` names, for a stream's wait. */
  seq: number;
}

/** Rows one read looks at, matching or not: a reader of a busy log with a narrow filter resumes. */
const SCAN_LIMIT = 2000;

export function readOccurrences(
  log: OccurrenceLog,
  type: EventType | undefined,
  query: ReadQuery,
  now: number,
): ReadResult {
  const epoch = log.epoch;
  const start = startPosition(log, query.after, query.maxAgeMs, now);
  const events: WireOccurrence[] = [];
  let position = start.from;
  let scanned = 0;
  let hasMore = false;
  // A null cursor without maxAgeMs is "from now": no events, only the cursor.
  const replay = query.after !== null || query.maxAgeMs !== undefined;
  while (replay && type !== undefined && !hasMore) {
    const rows = log.after(position, Math.min(500, SCAN_LIMIT - scanned));
    if (rows.length === 0) break;
    for (const row of rows) {
      scanned++;
      if (row.name === query.name && type.visible(query.principal, row.data) && type.matches(query.args, row.data)) {
        events.push({
          eventId: row.eventId,
          name: row.name,
          timestamp: new Date(row.at).toISOString(),
          data: JSON.stringify(row.data),
          cursor: encodeCursor({ epoch, seq: row.seq }),
        });
      }
      position = row.seq;
      if (events.length >= query.maxEvents) break;
    }
    hasMore = (events.length >= query.maxEvents || scanned >= SCAN_LIMIT) && log.lastSeq() > position;
  }
  return {
    start: encodeCursor({ epoch, seq: start.from }),
    events,
    cursor: encodeCursor({ epoch, seq: position }),
    truncated: start.truncated,
    hasMore,
    seq: position,
  };
}

/** An occurrence for the wire: its payload back as an object (`cursor` kept for push, dropped for poll). */
export function occurrenceMessage(occurrence: WireOccurrence, withCursor: boolean): JsonObject {
  const data: unknown = JSON.parse(occurrence.data);
  return {
    eventId: occurrence.eventId,
    name: occurrence.name,
    timestamp: occurrence.timestamp,
    data: isRecord(data) ? data : {},
    ...(withCursor && { cursor: occurrence.cursor }),
  };
}
