/**
 * The wire form of a feed message between a log's object and its readers: one line per event,
 * `<seq> <type> <at> <data JSON>`. The object serialises each event once for all its readers.
 * JSON text never holds a raw newline, so lines split cleanly.
 */

/** An event of any log as a feed carries it. */
export interface StreamEvent {
  seq: number;
  type: string;
  at: number;
  data: unknown;
}

/** An event as a reader receives it: its data still JSON text, for the reader to type. */
export interface WireEvent {
  seq: number;
  type: string;
  at: number;
  rawData: string;
}

/** Response headers of a feed upgrade (URI-encoded JSON: a correlation id may be any Unicode). */
export const FEED_META_HEADER = "X-Task-Meta";
export const FEED_STATE_HEADER = "X-Task-State";

const TYPE = /^[a-z_]{1,32}$/;

/** Lines for `events`, kept under `maxBytes` per message (an event larger than that goes alone). */
export function encodeFeedMessages(events: readonly StreamEvent[], maxBytes = 256 * 1024): string[] {
  const messages: string[] = [];
  let current = "";
  for (const event of events) {
    const line = `${event.seq} ${event.type} ${event.at} ${JSON.stringify(event.data)}`;
    if (current !== "" && current.length + line.length + 1 > maxBytes) {
      messages.push(current);
      current = "";
    }
    current = current === "" ? line : `${current}\n${line}`;
  }
  if (current !== "") messages.push(current);
  return messages;
}

/** The events of one message; lines that are not events are skipped (a reader never trusts framing blindly). */
export function decodeFeedMessage(message: string): WireEvent[] {
  const events: WireEvent[] = [];
  for (const line of message.split("\n")) {
    const a = line.indexOf(" ");
    const b = line.indexOf(" ", a + 1);
    const c = line.indexOf(" ", b + 1);
    if (a <= 0 || b <= a || c <= b) continue;
    const seq = Number(line.slice(0, a));
    const type = line.slice(a + 1, b);
    const at = Number(line.slice(b + 1, c));
    if (!Number.isSafeInteger(seq) || !Number.isFinite(at) || !TYPE.test(type)) continue;
    events.push({ seq, type, at, rawData: line.slice(c + 1) });
  }
  return events;
}
