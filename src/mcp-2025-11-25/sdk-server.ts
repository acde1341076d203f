/**
 * The one place our handlers meet the SDK's `Server` (one per HTTP request: it does the protocol
 * plumbing, initialize, ping, schemas and errors). Its request types and most of its result types
 * fit us; `tools/call` does not: the Server re-parses a tool call's result with its own schemas,
 * which drops `task._meta` (where a task-augmented call echoes the correlation id), and our tool
 * results are JSON built by tools, not the SDK's exact content types. So tools/call is registered
 * on the Server's base class, whose result type is open, and everything else stays typed.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol, type RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolRequest, CallToolRequestSchema, ServerCapabilities, ServerNotification, ServerRequest } from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { JsonObject } from "../json";

export type ToolCallHandler = (request: CallToolRequest, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => Promise<JsonObject>;

export class SdkServer extends Server {
  constructor(info: { name: string; version: string }, options: { capabilities: ServerCapabilities; instructions: string }) {
    // ajv (the SDK default) compiles schemas with new Function, which workerd forbids.
    super(info, { ...options, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  }

  /** `tools/call`, parsed with the SDK's CallToolRequestSchema, its result passed on as built. */
  onToolCall(schema: typeof CallToolRequestSchema, handler: ToolCallHandler): void {
    Protocol.prototype.setRequestHandler.call(this, schema, handler);
  }
}
