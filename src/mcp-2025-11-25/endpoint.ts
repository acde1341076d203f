/**
 * POST /mcp: checks the HTTP envelope (media types, size, JSON, JSON-RPC shape, protocol
 * version), then runs the messages through a per-request SDK Server and answers with JSON
 * or, when a request may take a while and the client accepts it, an SSE stream.
 */
import {
  JSONRPCMessageSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";
import { readBodyWithLimit } from "../http/body";
import { parseJsonInput } from "../http/json-input";
import { acceptedTypes, hasJsonContentType } from "../http/media-types";
import type { McpRequest } from "../http/mcp-endpoint";
import { ErrorCode, jsonRpcErrorResponse } from "../protocol/errors";
import { sendsPrimingEvents, streamProtocolVersion } from "../protocol/priming";
import { requestContext } from "../protocol/request-context";
import { SseStream } from "../streams/sse";
import type { McpContext } from "./context";
import { routeAnswers } from "./answers";
import { routeCancellations } from "./cancellations";
import { RequestTransport } from "./request-transport";
import { createMcpServer } from "./server";
import { SESSION_HEADER, checkSession, startSession, type SessionBindings, type SessionCheck } from "./session";

/** Finds the session a request names: the template's own (SESSIONS), or another server's (an adopter's McpAgent). */
export type SessionChecker = (request: Request, env: SessionBindings, principal: string) => Promise<SessionCheck>;

const MAX_BATCH = 32;
/** Methods that may wait on a task: answered as SSE when the client accepts it. */
const STREAMED_METHODS = new Set(["tools/call", "tasks/result"]);

type ClientRequest = JSONRPCMessage & { id: RequestId; method: string; params?: Record<string, unknown> };
const isRequest = (message: JSONRPCMessage): message is ClientRequest => "method" in message && "id" in message;

export async function handleMcpPost(input: McpRequest, sessions: SessionChecker = checkSession): Promise<Response> {
  const { request, settings } = input;
  if (!hasJsonContentType(request)) {
    return jsonRpcErrorResponse(
      415,
      ErrorCode.InvalidRequest,
      "Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json.",
    );
  }
  const { json: acceptsJson, sse: acceptsSse } = acceptedTypes(request);
  if (!acceptsJson && !acceptsSse) {
    return jsonRpcErrorResponse(
      406,
      ErrorCode.InvalidRequest,
      "Not Acceptable: the client must accept application/json and text/event-stream.",
    );
  }
  const version = request.headers.get("MCP-Protocol-Version");
  if (version !== null && !SUPPORTED_PROTOCOL_VERSIONS.includes(version)) {
    return jsonRpcErrorResponse(
      400,
      ErrorCode.InvalidRequest,
      `Unsupported MCP-Protocol-Version "${version.slice(0, 40)}"; supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")}.`,
    );
  }

  const body = input.body ?? (await readBodyWithLimit(request, settings.maxBodyBytes));
  if (!body.ok)
    return jsonRpcErrorResponse(
      body.status,
      body.status === 413 ? ErrorCode.InvalidRequest : ErrorCode.ParseError,
      body.message,
    );
  const json = input.json ? { ok: true as const, value: input.json.value } : parseJsonInput(body.text);
  if (!json.ok)
    return jsonRpcErrorResponse(
      400,
      json.reason === "parse" ? ErrorCode.ParseError : ErrorCode.InvalidRequest,
      json.message,
    );
  const parsed = json.value;
  const batch = Array.isArray(parsed);
  const raw: unknown[] = Array.isArray(parsed) ? parsed : [parsed];
  if (raw.length === 0 || raw.length > MAX_BATCH) {
    return jsonRpcErrorResponse(
      400,
      ErrorCode.InvalidRequest,
      `Invalid Request: a batch must hold 1 to ${MAX_BATCH} messages.`,
    );
  }
  const messages: JSONRPCMessage[] = [];
  for (const item of raw) {
    const result = JSONRPCMessageSchema.safeParse(item);
    if (!result.success)
      return jsonRpcErrorResponse(
        400,
        ErrorCode.InvalidRequest,
        "Invalid Request: not a JSON-RPC 2.0 request, notification or response.",
      );
    messages.push(result.data);
  }
  const requests = messages.filter(isRequest);
  if (requests.some((r) => r.method === "initialize") && messages.length > 1) {
    return jsonRpcErrorResponse(
      400,
      ErrorCode.InvalidRequest,
      "Invalid Request: initialize must be sent alone, not in a batch.",
    );
  }
  const ids = new Set(requests.map((r) => String(r.id)));
  if (ids.size !== requests.length)
    return jsonRpcErrorResponse(
      400,
      ErrorCode.InvalidRequest,
      "Invalid Request: request ids in a batch must be unique.",
    );
  const initialize = requests.find((r) => r.method === "initialize");
  let sessionId: string | undefined;
  let negotiated: string | undefined;
  let clientTasks = false;
  let clientElicitation = false;
  let keepsOpenCalls = true;
  if (!initialize) {
    const session = await sessions(request, input.env, input.principal);
    if (!session.ok) return session.response;
    sessionId = session.sessionId;
    negotiated = session.protocolVersion;
    clientTasks = session.clientTasks;
    clientElicitation = session.clientElicitation;
    keepsOpenCalls = session.keepsOpenCalls !== false;
  }

  const base = { ...requestContext(input), keepsOpenCalls };
  const routed = requests.length === messages.length ? { rest: messages } : await routeAnswers(messages, base.gateway);
  if (requests.length === 0 && routed.refusal) return routed.refusal;

  const streaming =
    acceptsSse &&
    requests.some(
      (r) => STREAMED_METHODS.has(r.method) && !(r.method === "tools/call" && r.params?.["task"] !== undefined),
    );
  const sse = streaming ? new SseStream({ retryMs: settings.pollIntervalMs }) : undefined;
  // Priming events only for clients whose version defines them: older SDKs choke on empty data.
  const primes = sendsPrimingEvents(streamProtocolVersion(negotiated, version));
  const transport = new RequestTransport(sse, { primes, ...(sessionId !== undefined && { sessionId }) });
  const ctx: McpContext = {
    ...base,
    output: transport,
    clientTasks,
    clientElicitation,
    ...(sessionId !== undefined && { sessionId }),
  };
  const server = createMcpServer(ctx);
  await server.connect(transport);

  await routeCancellations(routed.rest, ctx);
  for (const message of routed.rest) if (!isRequest(message)) transport.deliver(message);
  if (requests.length === 0) return new Response(null, { status: 202 });

  const replies = Promise.all(requests.map((r) => transport.dispatch(r)));
  if (sse) {
    input.waitUntil(replies.finally(() => sse.close()).finally(() => server.close()));
    return sse.response;
  }
  // Every request has its answer, and no handler sends requests of its own to the client (there is
  // no channel for them in a JSON answer), so the per-request server holds nothing to release: it
  // is dropped, not closed (closing builds errors with stacks for nothing: docs/core.md).
  const responses = await replies;
  const first = responses[0];
  const started = initialize && first ? await startSession(input.env, input.principal, initialize, first) : undefined;
  return Response.json(batch ? responses : first, started ? { headers: { [SESSION_HEADER]: started } } : undefined);
}
