/**
 * Following a task over raw Streamable HTTP, where the wire is the point: `tasks/result` as an SSE
 * response (POST /mcp), cut on purpose after a given progress value, then resumed with
 * `GET /mcp` + `Last-Event-ID`, which replays what was missed from the server's log and goes on live.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { DemoError, HttpStatusError } from "./explain.ts";
import type { Narrator } from "./narrator.ts";
import { streamEvents, type StreamMessage } from "./sse.ts";

export interface FollowTarget {
  url: URL;
  /** Authorization, MCP-Protocol-Version and Mcp-Session-Id, as the SDK client negotiated them. */
  headers: Record<string, string>;
  taskId: string;
  narrator: Narrator;
  /** Every progress value seen, in arrival order, to prove none was lost or repeated. */
  seen: number[];
}

export interface LegEnd {
  lastEventId: string | undefined;
  result?: CallToolResult;
}

const RESULT_REQUEST_ID = "demo-tasks-result";

/** Shows one message; a result ends the task's stream, a JSON-RPC error ends the demo. */
function show(target: FollowTarget, message: StreamMessage, lastStatus: { text?: string }): CallToolResult | undefined {
  switch (message.kind) {
    case "progress":
      target.seen.push(message.params.progress);
      target.narrator.progress(
        message.params.progress,
        message.params.total ?? message.params.progress,
        message.params.message,
      );
      return undefined;
    case "status": {
      const text = `${message.params.status}${message.params.statusMessage ? ` (${message.params.statusMessage})` : ""}`;
      if (text !== lastStatus.text) target.narrator.say(`task status: ${text}`);
      lastStatus.text = text;
      return undefined;
    }
    case "result":
      return message.result;
    case "error":
      throw new DemoError(`tasks/result failed: ${message.error.message} (JSON-RPC ${message.error.code}).`);
    case "other":
      return undefined;
  }
}

async function requireStream(response: Response, what: string): Promise<Response> {
  if (!response.ok) throw new HttpStatusError(response.status, what, await response.text().catch(() => ""));
  if (!(response.headers.get("content-type") ?? "").includes("text/event-stream")) {
    throw new DemoError(
      `${what} answered ${response.headers.get("content-type") ?? "no content type"}, not an SSE stream: this server does not stream task results.`,
    );
  }
  return response;
}

/**
 * Leg one: `tasks/result` as an SSE stream, until the result or until progress reaches `dropAt`,
 * when the connection is cut as a network failure would cut it.
 */
export async function followUntil(target: FollowTarget, dropAt: number): Promise<LegEnd & { dropped: boolean }> {
  const controller = new AbortController();
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: RESULT_REQUEST_ID,
    method: "tasks/result",
    params: { taskId: target.taskId },
  });
  const headers = {
    ...target.headers,
    "Content-Type": "application/json",
    Accept: "application/json, text/event-stream",
  };
  const response = await requireStream(
    await fetch(target.url, { method: "POST", headers, body, signal: controller.signal }),
    "POST /mcp tasks/result",
  );
  let lastEventId: string | undefined;
  const lastStatus = {};
  try {
    for await (const event of streamEvents(response)) {
      lastEventId = event.id ?? lastEventId;
      const result = show(target, event.message, lastStatus);
      if (result) return { lastEventId, result, dropped: false };
      if (event.message.kind === "progress" && event.message.params.progress >= dropAt) {
        controller.abort(); // the cut: the server sees the connection close mid-stream
        return { lastEventId, dropped: true };
      }
    }
  } catch (error) {
    if (!controller.signal.aborted)
      target.narrator.say(`the stream broke by itself (${error instanceof Error ? error.message : String(error)})`);
  }
  return { lastEventId, dropped: false };
}

/** What the server had done by the time of the reconnect: what a replay will hold. */
export interface AwayState {
  progress: number;
  terminal: boolean;
}

/**
 * Leg two: `GET /mcp` with `Last-Event-ID`. Events up to `away` (what the server had done before
 * this request) are replays of what was missed; the rest arrives live.
 */
export async function resume(target: FollowTarget, lastEventId: string, away: AwayState): Promise<LegEnd> {
  const headers = { ...target.headers, Accept: "text/event-stream", "Last-Event-ID": lastEventId };
  const response = await requireStream(
    await fetch(target.url, { method: "GET", headers }),
    "GET /mcp with Last-Event-ID",
  );
  let last: string | undefined = lastEventId;
  const replayed: StreamMessage[] = [];
  let live = false;
  const lastStatus = {};
  const announce = (withResult: boolean) => {
    live = true;
    const items = replayed.flatMap((m) => (m.kind === "progress" ? [m.params.progress] : []));
    const span =
      items.length === 0 ? "" : items.length === 1 ? ` (item ${items[0]})` : ` (items ${items[0]} to ${items.at(-1)})`;
    if (replayed.length === 0)
      target.narrator.say("replayed 0 missed events: nothing happened while we were away; following live");
    else
      target.narrator.say(
        `replayed ${replayed.length} missed event${replayed.length === 1 ? "" : "s"} from the server's log${span}${withResult ? ", the last one being the result" : "; following live again"}`,
      );
  };
  const seenBefore = target.seen.at(-1) ?? 0;
  if (!away.terminal && away.progress <= seenBefore) announce(false);
  for await (const event of streamEvents(response)) {
    last = event.id ?? last;
    const message = event.message;
    if (!live) replayed.push(message);
    const result = show(target, message, lastStatus);
    if (result) {
      if (!live) announce(true);
      return { lastEventId: last, result };
    }
    // A task still running when we looked: its replay ends with the last progress it had made.
    if (!live && !away.terminal && message.kind === "progress" && message.params.progress >= away.progress)
      announce(false);
  }
  return { lastEventId: last };
}
