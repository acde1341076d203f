/**
 * `notifications/cancelled` for a plain `tools/call` (2025-11-25). Each POST has its own SDK
 * Server, so the Server that hears the notification never ran the call; instead an open call that
 * created its task (protocol/call-policy.ts) is kept in its session while its response is open
 * (sessions/open-calls.ts) until its deadline at most, and a cancellation naming it cancels that
 * task, as 2026 does when the client closes the call. Once the call has answered, a cancellation reaches nothing: OpenCode
 * sends one after every answer, "Still running" pointers included, and the model was just told to
 * check back on that task. A disconnect is not a cancellation here (2025-11-25 transports.mdx).
 */
import { CancelledNotificationSchema, type JSONRPCMessage, type RequestId } from "@modelcontextprotocol/sdk/types.js";
import { sha256Base64url } from "../core";
import type { McpContext } from "./context";
import { sessionStub } from "./session";

/** A digest of the id's JSON (1 and "1" differ): storage keys are bounded, request ids are not. */
const key = (requestId: RequestId): Promise<string> => sha256Base64url(JSON.stringify(requestId));

/** What keeping a call open needs of the request: its session, and the caller's way to its tasks. */
export type SessionCalls = Pick<McpContext, "env" | "gateway" | "sessionId" | "keepsOpenCalls">;

/**
 * Keeps call `requestId` open in its session while `follow` runs (until `deadline`, when the call
 * stops waiting), so a cancellation can reach `taskId`; forgotten before the call answers, and
 * ignored past its deadline if the isolate dies first. A call outside a session cannot be named: runs as is.
 */
export async function whileOpen<T>(
  ctx: SessionCalls,
  requestId: RequestId,
  taskId: string,
  deadline: number,
  follow: () => Promise<T>,
): Promise<T> {
  if (ctx.sessionId === undefined || ctx.keepsOpenCalls === false) return follow();
  const session = sessionStub(ctx.env, ctx.gateway.principal, ctx.sessionId);
  const name = await key(requestId);
  if (!(await session.openCall(name, taskId, deadline - Date.now()))) return follow();
  try {
    return await follow();
  } finally {
    await session.closeCall(name, taskId);
  }
}

/** Cancels the task of each open call the messages' `notifications/cancelled` name (the rest pass on untouched). */
export async function routeCancellations(messages: readonly JSONRPCMessage[], ctx: SessionCalls): Promise<void> {
  const { sessionId } = ctx;
  if (sessionId === undefined || ctx.keepsOpenCalls === false) return;
  await Promise.all(
    messages.map(async (message) => {
      const cancelled = CancelledNotificationSchema.safeParse(message);
      const requestId = cancelled.success ? cancelled.data.params.requestId : undefined;
      if (requestId === undefined) return;
      const taskId = await sessionStub(ctx.env, ctx.gateway.principal, sessionId).takeOpenCall(await key(requestId));
      if (taskId !== undefined) await ctx.gateway.cancel(taskId);
    }),
  );
}
