/**
 * Every SSE event of a stream as the MCP SDK clients read it (eventsource-parser), and the check the
 * SDK's transport applied to each one before it learned to skip priming events (SDK 1.x of the
 * 2025-06-18 era, still bundled by agents such as Gemini CLI 0.61.0): `JSONRPCMessageSchema.parse(
 * JSON.parse(event.data))` on every event without an event name; a throw went to the client's onerror.
 */
import { JSONRPCMessageSchema } from "@modelcontextprotocol/sdk/types.js";
import { EventSourceParserStream, type EventSourceMessage } from "eventsource-parser/stream";

export type WireEvent = EventSourceMessage;

export interface WireStream {
  status: number;
  headers: Headers;
  /** Every event read so far. */
  events: WireEvent[];
  /** The next event; undefined once the stream has ended. */
  next(timeoutMs?: number): Promise<WireEvent | undefined>;
  /** Reads until `stop` holds for an event (returned), or the stream ends (undefined). */
  until(stop: (event: WireEvent) => boolean, timeoutMs?: number): Promise<WireEvent | undefined>;
  /** Drop the connection, as a network failure would. */
  drop(): void;
}

/** Events read from a response body (an SSE one; others yield nothing). */
export function wireEvents(response: Response, controller?: AbortController): WireStream {
  const events: WireEvent[] = [];
  const sse = (response.headers.get("Content-Type") ?? "").includes("text/event-stream");
  const reader =
    sse && response.body
      ? response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader()
      : undefined;
  let ended = reader === undefined;
  const next = async (timeoutMs = 30_000): Promise<WireEvent | undefined> => {
    if (!reader || ended) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));
    const read = reader.read().catch(() => ({ done: true as const, value: undefined }));
    const outcome = await Promise.race([read, timeout]);
    clearTimeout(timer);
    if (outcome === "timeout") throw new Error(`no SSE event within ${timeoutMs} ms; got ${JSON.stringify(events)}`);
    if (outcome.done) {
      ended = true;
      return undefined;
    }
    events.push(outcome.value);
    return outcome.value;
  };
  return {
    status: response.status,
    headers: response.headers,
    events,
    next,
    async until(stop, timeoutMs) {
      for (let event = await next(timeoutMs); event; event = await next(timeoutMs)) if (stop(event)) return event;
      return undefined;
    },
    drop() {
      ended = true;
      controller?.abort();
      reader?.cancel().catch(() => undefined);
    },
  };
}

/** Opens a request whose answer is read event by event. */
export async function openWire(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<WireStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: init.headers ?? {},
    body: init.body,
    signal: controller.signal,
  });
  return wireEvents(response, controller);
}

/** Why an SDK of the 2025-06-18 era would report this event to its onerror, or undefined if it parses. */
export function oldSdkProblem(event: WireEvent): string | undefined {
  if (event.event !== undefined && event.event !== "message") return undefined;
  try {
    JSONRPCMessageSchema.parse(JSON.parse(event.data));
    return undefined;
  } catch (error) {
    const why = error instanceof Error ? error.message.slice(0, 120) : String(error);
    return `event ${event.id ?? "(no id)"} with data ${JSON.stringify(event.data.slice(0, 80))}: ${why}`;
  }
}

/** The JSON-RPC message an event carries (it must carry one). */
export function messageOf(event: WireEvent): Record<string, unknown> {
  const value: unknown = JSON.parse(event.data);
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error(`not a JSON object: ${event.data.slice(0, 200)}`);
  return Object.fromEntries(Object.entries(value));
}
