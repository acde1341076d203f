/**
 * The seam between the HTTP layer and a protocol adapter: what `/mcp` hands the adapter for one
 * request, and the routes an adapter serves. src/index.ts plugs the adapter in.
 */
import type { Settings } from "../config";
import type { GatewayEnv } from "../principals/principal-indexes";
import type { RequestId } from "../protocol/errors";
import type { ToolRegistry } from "../protocol/tool-registry";
import type { SessionsEnv } from "../sessions/session-object";
import type { EventsEnv } from "../events/event-logs";
import type { BodyResult } from "./body";
import type { JsonObject } from "../json";

/** The bindings an MCP request reaches: basic tasks', and SESSIONS where the template binds it. */
export type McpRequestEnv = GatewayEnv & Partial<SessionsEnv> & EventsEnv;

/** A request that names its protocol version on itself (2026-07-28 on), as the era router found it. */
export interface ClaimedMessage {
  /** Absent for a notification. */
  id?: RequestId;
  method: string;
  params: Record<string, unknown>;
  /** The version the body claims; undefined for a notification served on the header alone. */
  claimedVersion?: string;
}

export interface McpRequest {
  request: Request;
  /** Basic tasks' bindings, and the template's SESSIONS where bound (an adopter's Worker has none). */
  env: McpRequestEnv;
  settings: Settings;
  principal: string;
  /** What the auth knew of the caller, kept (sealed) with the tasks this request creates (`job.caller`). */
  caller?: JsonObject;
  /** The tools to serve, as src/index.ts wired them into serveMcp. */
  tools: ToolRegistry;
  /** The server's public origin, for links such as `/tasks/{id}`. */
  baseUrl: string;
  /** Keeps background work (a stream still being written) alive after the response starts. */
  waitUntil(promise: Promise<unknown>): void;
  /** The POST body, when a router in front (the era router) already read it, and parsed it if it had to look inside. */
  body?: BodyResult;
  json?: { value: unknown };
  /** For a per-request era: the message the router classified (absent when the body could not be read or parsed). */
  message?: ClaimedMessage;
}

export interface McpEndpoint {
  post(input: McpRequest): Promise<Response>;
  get(input: McpRequest): Promise<Response>;
  delete(input: McpRequest): Promise<Response>;
}
