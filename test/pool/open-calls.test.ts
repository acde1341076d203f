// Open calls live as long as their call (issue 41, point 9): a 2025 plain call that created its
// task is kept in its session while open (src/mcp-2025-11-25/cancellations.ts), so a
// `notifications/cancelled` naming it stops that task. An isolate that dies never forgets its entry;
// a new SDK Client in the session starts its request ids again, and its cancellation of one of them
// must not reach the dead call's task.
import { describe, it } from "vitest";
import { env } from "cloudflare:workers";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/sdk/types.js";
import { readSettings } from "../../src/config";
import { TaskGateway } from "../../src/core";
import { routeCancellations, whileOpen, type SessionCalls } from "../../src/mcp-2025-11-25/cancellations";
import { gatewayBindings } from "../../src/principals/principal-indexes";
import { newSessionId, sessionObjectName } from "../../src/sessions/ids";
import { ANSWER_GRACE_MS } from "../../src/sessions/open-calls";

const settings = readSettings(env);

/** A 2025 session of a fresh principal, as its requests reach it. */
async function session(): Promise<SessionCalls> {
  const principal = `p-${crypto.randomUUID()}`;
  const sessionId = newSessionId();
  await env.SESSIONS.getByName(sessionObjectName(principal, sessionId)).start({
    sessionId,
    principal,
    protocolVersion: "2025-11-25",
    capabilities: {},
  });
  return { env, gateway: new TaskGateway(gatewayBindings(env), settings, principal), sessionId };
}

async function countdown(ctx: SessionCalls): Promise<string> {
  const created = await ctx.gateway.create({ tool: "countdown", args: { seconds: 120 } });
  if (!created.ok) throw new Error(`not created: ${JSON.stringify(created)}`);
  return created.snapshot.task.taskId;
}

const cancelled = (requestId: RequestId): JSONRPCMessage => ({
  jsonrpc: "2.0",
  method: "notifications/cancelled",
  params: { requestId },
});

/**
 * A plain call with id `requestId` that began an inline wait and more ago, whose isolate died while
 * it followed its task: its entry was written, and its `finally` never ran.
 */
async function deadCall(ctx: SessionCalls, requestId: RequestId, taskId: string): Promise<void> {
  const began = Date.now() - settings.inlineWaitMs - ANSWER_GRACE_MS - 1;
  await new Promise<void>((following) => {
    void whileOpen(ctx, requestId, taskId, began + settings.inlineWaitMs, () => {
      following();
      return new Promise<never>(() => undefined); // the isolate is gone: this never settles
    });
  });
}

const statusOf = async (ctx: SessionCalls, taskId: string) => (await ctx.gateway.get(taskId))?.task.status;

describe("a 2025 session's open calls", () => {
  it("a cancellation naming a request id that a new client reused does not reach a dead call's task", async ({
    expect,
  }) => {
    const ctx = await session();
    const old = await countdown(ctx);
    await deadCall(ctx, 7, old);
    await routeCancellations([cancelled(7)], ctx);
    expect(await statusOf(ctx, old)).toBe("working");
    await ctx.gateway.cancel(old);
  });

  it("a live call with that id replaces the dead call's entry, and a cancellation naming it stops its own task", async ({
    expect,
  }) => {
    const ctx = await session();
    const old = await countdown(ctx);
    await deadCall(ctx, 7, old);
    const fresh = await countdown(ctx);
    const during = await whileOpen(ctx, 7, fresh, Date.now() + settings.inlineWaitMs, async () => {
      await routeCancellations([cancelled(7)], ctx);
      return statusOf(ctx, fresh);
    });
    expect(during).toBe("cancelled");
    expect(await statusOf(ctx, old)).toBe("working");
    // Answered: a cancellation after that reaches nothing (the entry went with the call).
    const another = await countdown(ctx);
    await whileOpen(ctx, 8, another, Date.now() + settings.inlineWaitMs, async () => undefined);
    await routeCancellations([cancelled(8)], ctx);
    expect(await statusOf(ctx, another)).toBe("working");
    await Promise.all([ctx.gateway.cancel(old), ctx.gateway.cancel(another)]);
  });
});
