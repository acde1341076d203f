/**
 * The one place our handlers meet the SDK's `Server` (one per HTTP request: it does the protocol
 * plumbing, initialize, ping, schemas and errors). Its request types and most of its result types
 * fit us; `tools/call` does not: the Server re-parses a tool call's result with its own schemas,
 * which drops `task._meta` (where a task-augmented call echoes the correlation id), and our tool
 * results are JSON built by tools, not the SDK's exact content types. So tools/call is registered
 * on the Server's base class, whose result type is open, and everything else stays typed. An error
 * a handler did not mean to send is logged with a reference and answered in generic words
 * (protocol/unexpected-errors.ts), not with its own message as the SDK would.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { Protocol, type RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  McpError,
  type CallToolRequest,
  type CallToolRequestSchema,
  type Notification,
  type Request,
  type Result,
  type ServerCapabilities,
  type ServerNotification,
  type ServerRequest,
  type ServerResult,
} from "@modelcontextprotocol/sdk/types.js";
import type { AnyObjectSchema, SchemaOutput } from "@modelcontextprotocol/sdk/server/zod-compat.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { isRecord, type JsonObject } from "../json";
import { answerableError } from "../protocol/unexpected-errors";

type Handler<T extends AnyObjectSchema> = (
  request: SchemaOutput<T>,
  extra: RequestHandlerExtra<ServerRequest | Request, ServerNotification | Notification>,
) => ServerResult | Result | Promise<ServerResult | Result>;

export type ToolCallHandler = (
  request: CallToolRequest,
  extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
) => Promise<JsonObject>;

export class SdkServer extends Server {
  constructor(
    info: { name: string; version: string },
    options: { capabilities: ServerCapabilities; instructions: string },
  ) {
    // ajv (the SDK default) compiles schemas with new Function, which workerd forbids.
    super(info, { ...options, jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });
  }

  // A method, so the handlers the SDK registers in its constructor (initialize, ping) are guarded too.
  override setRequestHandler<T extends AnyObjectSchema>(schema: T, handler: Handler<T>): void {
    super.setRequestHandler(schema, (request, extra) =>
      guarded(methodOf(request), async () => handler(request, extra)),
    );
  }

  /** `tools/call`, parsed with the SDK's CallToolRequestSchema, its result passed on as built. */
  onToolCall(schema: typeof CallToolRequestSchema, handler: ToolCallHandler): void {
    const run = (request: CallToolRequest, extra: Parameters<ToolCallHandler>[1]) =>
      guarded(request.method, () => handler(request, extra));
    Protocol.prototype.setRequestHandler.call(this, schema, run);
  }
}

const methodOf = (request: unknown): string =>
  isRecord(request) && typeof request["method"] === "string" ? request["method"] : "request";

/** Runs a handler; what it throws reaches the SDK as an error a client may read (the SDK's McpError as is). */
async function guarded<T>(method: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw error instanceof McpError ? error : answerableError(error, `2025-11-25 ${method}`);
  }
}
