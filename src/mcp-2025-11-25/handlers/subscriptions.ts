/**
 * `resources/subscribe` and `resources/unsubscribe` for task resources: the session records the
 * URI and the task keeps the session as a watcher (adapter state), so each change of the task
 * sends `notifications/resources/updated` on the session's GET stream.
 */
import { SubscribeRequestSchema, UnsubscribeRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { parseTaskResourceUri } from "../../core";
import { ErrorCode, ProtocolError, taskNotFound } from "../../protocol/errors";
import { SESSION_WATCH_STATE } from "../../sessions/ids";
import type { McpContext } from "../context";
import type { SdkServer } from "../sdk-server";
import { sessionStub } from "../session";

function sessionOf(ctx: McpContext): string {
  if (ctx.sessionId === undefined) {
    throw new ProtocolError(
      ErrorCode.InvalidRequest,
      "Subscriptions need a session: send the Mcp-Session-Id from the initialize response, and open GET /mcp to receive the updates.",
    );
  }
  return ctx.sessionId;
}

function taskIdOf(uri: string): string {
  const taskId = parseTaskResourceUri(uri);
  if (!taskId)
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Unknown resource "${uri.slice(0, 200)}": this server's resources are tasks, task://{taskId}.`,
    );
  return taskId;
}

export function registerSubscriptionHandlers(server: SdkServer, ctx: McpContext): void {
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    const sessionId = sessionOf(ctx);
    const { uri } = request.params;
    const taskId = taskIdOf(uri);
    // The session first: a watcher whose session is gone is harmless, a lost subscription is not.
    const session = sessionStub(ctx.env, ctx.gateway.principal, sessionId);
    if (!(await session.subscribe(uri)))
      throw new ProtocolError(ErrorCode.InvalidRequest, "The session has ended; initialize again.");
    if ((await ctx.gateway.attachState(taskId, SESSION_WATCH_STATE, {}, sessionId)) === undefined) {
      await session.unsubscribe(uri);
      throw taskNotFound();
    }
    return {};
  });

  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    const sessionId = sessionOf(ctx);
    const { uri } = request.params;
    const taskId = taskIdOf(uri);
    await Promise.all([
      sessionStub(ctx.env, ctx.gateway.principal, sessionId).unsubscribe(uri),
      ctx.gateway.detachState(taskId, SESSION_WATCH_STATE, sessionId),
    ]);
    return {};
  });
}
