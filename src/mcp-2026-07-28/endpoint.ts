/**
 * POST /mcp for a request the era router found to be 2026-07-28's: the 2026-07-28 checks in the spec's order
 * (version, envelope, standard headers, method, client capability), then the method, answered as
 * one JSON body or, once it notifies, as an SSE stream. Stateless: no session, no event ids, and
 * `Mcp-Session-Id` / `Last-Event-ID` are never read.
 */
import type { McpRequest } from "../http/mcp-endpoint";
import { ErrorCode } from "../protocol/errors";
import { answerableError } from "../protocol/unexpected-errors";
import type { JsonObject } from "../json";
import { requestContext } from "../protocol/request-context";
import type { ClaimedMessage } from "../http/mcp-endpoint";
import { acceptedTypes } from "../http/media-types";
import type { Context20260728 } from "./context";
import { parseEnvelope } from "./envelope";
import { methodNotFound, tasksExtensionRequired, unsupportedVersion } from "./errors";
import { HttpProtocolError, errorResponse, toJsonRpcError, type RequestId } from "../protocol/errors";
import { checkStandardHeaders } from "./headers";
import { method20260728 } from "./methods";
import { VERSION_2026_07_28 } from "./protocol";
import { RequestOutput } from "./response";
import { finalize } from "./results";

export interface PostInput20260728 extends McpRequest {
  message: ClaimedMessage;
}

type Outcome = { ok: true; result: JsonObject } | { ok: false; error: unknown };

/** 405 for GET and DELETE: 2026-07-28 has no GET stream and no sessions (streamable-http.mdx, "Backward Compatibility"). */
export function methodNotAllowed20260728(method: string): Response {
  const error = new HttpProtocolError(
    ErrorCode.MethodNotFound,
    `Method Not Allowed: ${method} /mcp is not part of ${VERSION_2026_07_28}, which has no sessions and no GET stream. POST every request; use subscriptions/listen for notifications.`,
    405,
  );
  return errorResponse(null, error, { Allow: "POST, OPTIONS" });
}

export async function handlePost20260728(input: PostInput20260728): Promise<Response> {
  const { request, message } = input;
  const id: RequestId | null = message.id ?? null;
  try {
    if (message.claimedVersion !== undefined && message.claimedVersion !== VERSION_2026_07_28)
      throw unsupportedVersion(message.claimedVersion);
    const envelope = message.claimedVersion === undefined ? undefined : parseEnvelope(message.params);
    checkStandardHeaders(request.headers, message);
    // 2026-07-28 defines no client notification over HTTP: accepted and dropped.
    if (message.id === undefined || envelope === undefined) return new Response(null, { status: 202 });
    const accept = acceptedTypes(request);
    if (!accept.json && !accept.sse) {
      throw new HttpProtocolError(
        ErrorCode.InvalidRequest,
        "Not Acceptable: the client must accept application/json and text/event-stream.",
        406,
      );
    }
    const method = method20260728(message.method);
    if (!method) throw methodNotFound(message.method);
    if (method.needsTasksExtension && !envelope.tasks)
      throw tasksExtensionRequired(`${message.method} belongs to the Tasks extension.`);
    const output = new RequestOutput(accept.sse, request.signal, input.settings.keepaliveMs);
    // A client that takes only SSE gets a stream from the start.
    if (!accept.json) output.stream();
    const ctx: Context20260728 = { ...requestContext(input), envelope, requestId: message.id, output };
    const work: Promise<Outcome> = method.run(ctx, message.params).then(
      (result) => ({ ok: true, result }),
      (error: unknown) => ({ ok: false, error }),
    );
    const first = await Promise.race([work, output.upgraded]);
    if (first !== "upgraded") return answer(message.id, message.method, first);
    input.waitUntil(work.then((outcome) => output.finish(frame(message.id ?? null, message.method, outcome))));
    return output.response ?? errorResponse(id, new HttpProtocolError(ErrorCode.InternalError, "Internal error.", 500));
  } catch (error) {
    return errorResponse(id, answerableError(error, `2026-07-28 ${message.method}`));
  }
}

function frame(id: RequestId | null, method: string, outcome: Outcome): JsonObject {
  if (outcome.ok) return { jsonrpc: "2.0", id, result: finalize(outcome.result) };
  return { jsonrpc: "2.0", id, error: toJsonRpcError(answerableError(outcome.error, `2026-07-28 ${method}`)) };
}

function answer(id: RequestId, method: string, outcome: Outcome): Response {
  if (!outcome.ok) return errorResponse(id, answerableError(outcome.error, `2026-07-28 ${method}`));
  return Response.json({ jsonrpc: "2.0", id, result: finalize(outcome.result) });
}
