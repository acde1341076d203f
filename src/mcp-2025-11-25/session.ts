/**
 * `Mcp-Session-Id` sessions over HTTP. `initialize` starts one (the id rides on the
 * response header); later requests that carry the header must name a live session of
 * the same principal (else 404, so the client re-initializes). POSTs without the header
 * are served statelessly; GET and DELETE /mcp need it (400 without).
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod";
import { ErrorCode, jsonRpcErrorResponse } from "../protocol/errors";
import { isSessionId, newSessionId, sessionObjectName } from "../sessions/ids";
import type { SessionsEnv } from "../sessions/session-object";

export const SESSION_HEADER = "Mcp-Session-Id";

/**
 * A live session: its id, the protocol version it negotiated, and whether its client declared the tasks
 * and elicitation capabilities in `initialize`.
 */
export type SessionCheck =
  | {
      ok: true;
      sessionId?: string;
      protocolVersion?: string;
      clientTasks: boolean;
      clientElicitation: boolean;
      /** False for a session another server keeps (an adopter's McpAgent): no SessionObject holds its open calls. */
      keepsOpenCalls?: boolean;
    }
  | { ok: false; response: Response };

/** The Worker's bindings as the 2025 handlers read them: SESSIONS is the template's own, absent in an adopter's. */
export type SessionBindings = Partial<SessionsEnv>;

/** A session's object. Only the template's sessions reach here; an adopter's McpAgent keeps its own (keepsOpenCalls false). */
export function sessionStub(env: SessionBindings, principal: string, sessionId: string) {
  if (env.SESSIONS === undefined)
    throw new Error(
      'This Worker binds no SESSIONS namespace, which the template\'s 2025-11-25 sessions need: add { "name": "SESSIONS", "class_name": "SessionObject" } to "durable_objects.bindings" in wrangler.jsonc.',
    );
  return env.SESSIONS.getByName(sessionObjectName(principal, sessionId));
}

const unknownSession = (): Response =>
  jsonRpcErrorResponse(
    404,
    -32001,
    "Session not found: it ended, expired or belongs to someone else. Send initialize again (without Mcp-Session-Id) to start a new one.",
  );

/** The session a request names, if any; 404 when it names one that is not live for this principal. */
export async function checkSession(request: Request, env: SessionBindings, principal: string): Promise<SessionCheck> {
  const header = request.headers.get(SESSION_HEADER);
  if (header === null) return { ok: true, clientTasks: false, clientElicitation: false };
  // Malformed ids are just unknown ids: the same answer, no name derived from them.
  if (!isSessionId(header)) return { ok: false, response: unknownSession() };
  const info = await sessionStub(env, principal, header).touch();
  if (!info) return { ok: false, response: unknownSession() };
  const { protocolVersion, clientTasks, clientElicitation } = info;
  return { ok: true, sessionId: header, protocolVersion, clientTasks, clientElicitation };
}

/** Like checkSession, but the header is required (GET and DELETE /mcp). */
export async function requireSession(
  request: Request,
  env: SessionBindings,
  principal: string,
): Promise<{ ok: true; sessionId: string } | { ok: false; response: Response }> {
  if (request.headers.get(SESSION_HEADER) === null) {
    return {
      ok: false,
      response: jsonRpcErrorResponse(
        400,
        ErrorCode.InvalidRequest,
        "Bad Request: Mcp-Session-Id header is required. Use the id from the initialize response's Mcp-Session-Id header.",
      ),
    };
  }
  const check = await checkSession(request, env, principal);
  if (!check.ok) return check;
  return check.sessionId === undefined
    ? { ok: false, response: unknownSession() }
    : { ok: true, sessionId: check.sessionId };
}

const InitializeParamsSchema = z.object({
  capabilities: z.record(z.string(), z.unknown()).optional(),
  clientInfo: z.record(z.string(), z.unknown()).optional(),
});
const InitializeResultSchema = z.object({ protocolVersion: z.string() });

/** After a successful `initialize`: store the session and return its id for the response header. */
export async function startSession(
  env: SessionBindings,
  principal: string,
  initialize: JSONRPCMessage,
  response: JSONRPCMessage,
): Promise<string | undefined> {
  if (!("result" in response) || !("params" in initialize)) return undefined;
  const params = InitializeParamsSchema.safeParse(initialize.params ?? {});
  const result = InitializeResultSchema.safeParse(response.result);
  const sessionId = newSessionId();
  await sessionStub(env, principal, sessionId).start({
    sessionId,
    principal,
    protocolVersion: result.success ? result.data.protocolVersion : "",
    capabilities: (params.success && params.data.capabilities) || {},
    ...(params.success && params.data.clientInfo !== undefined && { clientInfo: params.data.clientInfo }),
  });
  return sessionId;
}

/** DELETE /mcp: ends the session; its id then gets 404. */
export async function endSession(request: Request, env: SessionBindings, principal: string): Promise<Response> {
  const check = await requireSession(request, env, principal);
  if (!check.ok) return check.response;
  const ended = await sessionStub(env, principal, check.sessionId).end();
  return ended ? new Response(null, { status: 204 }) : unknownSession();
}
