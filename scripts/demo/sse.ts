/**
 * The demo's view of an MCP SSE stream: each event's id (what a reconnect sends back as
 * `Last-Event-ID`) and its JSON-RPC message, sorted into the three kinds the demo follows.
 * Parsed with eventsource-parser and the SDK's own schemas: the bytes come from the network.
 */
import { EventSourceParserStream } from "eventsource-parser/stream";
import {
  CallToolResultSchema,
  JSONRPCMessageSchema,
  ProgressNotificationSchema,
  TaskStatusNotificationSchema,
  isJSONRPCErrorResponse,
  isJSONRPCResultResponse,
  type CallToolResult,
  type JSONRPCMessage,
  type ProgressNotification,
  type TaskStatusNotification,
} from "@modelcontextprotocol/sdk/types.js";

export type StreamMessage =
  | { kind: "progress"; params: ProgressNotification["params"] }
  | { kind: "status"; params: TaskStatusNotification["params"] }
  | { kind: "result"; requestId: string | number; result: CallToolResult }
  | { kind: "error"; requestId: string | number | undefined; error: { code: number; message: string } }
  | { kind: "other"; message: JSONRPCMessage };

export interface StreamEvent {
  /** The SSE event id, if the server gave one: the point to resume from. */
  id: string | undefined;
  message: StreamMessage;
}

/** The events of an SSE response, in order; ends when the server ends the stream. */
export async function* streamEvents(response: Response): AsyncGenerator<StreamEvent> {
  if (!response.body) return;
  const events = response.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
  for await (const event of events) {
    if (event.data === "") continue; // a priming event: an id to resume from, no message yet
    let json: unknown;
    try {
      json = JSON.parse(event.data);
    } catch {
      throw new Error(`The server sent an SSE event that is not JSON: ${event.data.slice(0, 200)}`);
    }
    const parsed = JSONRPCMessageSchema.safeParse(json);
    if (!parsed.success)
      throw new Error(`The server sent an SSE event that is not a JSON-RPC message: ${event.data.slice(0, 200)}`);
    yield { id: event.id, message: classify(parsed.data) };
  }
}

function classify(message: JSONRPCMessage): StreamMessage {
  const progress = ProgressNotificationSchema.safeParse(message);
  if (progress.success) return { kind: "progress", params: progress.data.params };
  const status = TaskStatusNotificationSchema.safeParse(message);
  if (status.success) return { kind: "status", params: status.data.params };
  if (isJSONRPCResultResponse(message)) {
    const result = CallToolResultSchema.safeParse(message.result);
    if (result.success) return { kind: "result", requestId: message.id, result: result.data };
  }
  if (isJSONRPCErrorResponse(message)) return { kind: "error", requestId: message.id, error: message.error };
  return { kind: "other", message };
}
