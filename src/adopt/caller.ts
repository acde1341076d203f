/**
 * What a durable tool's `job.caller` gets on the adopter lanes: the adopter's `caller(request, env,
 * ctx)` answer, or by default `ctx.props` (what @cloudflare/workers-oauth-provider, and McpAgent's
 * `this.props` after it, hold of the signed-in user). Checked here, at the edge, before it is
 * sealed with a task: a JSON object of at most MAX_CALLER_BYTES, or nothing.
 */
import * as z from "zod";
import type { JsonObject } from "../json";

/** The adopter's answer to "what does a tool acting for this caller need?": a JSON object, or undefined. */
export type CallerOf<E = unknown> = (request: Request, env: E, ctx: ExecutionContext) => unknown;

export const MAX_CALLER_BYTES = 16 * 1024;

const CallerSchema = z.record(z.string(), z.json());

export type CallerContext =
  | { ok: true; caller?: JsonObject }
  | { ok: false; refusal: { status: 401 | 403; error: string; message: string } };

const invalid = (message: string): CallerContext => ({
  ok: false,
  refusal: { status: 403, error: "caller_invalid", message },
});

export async function callerContext<E>(
  callerOf: CallerOf<E> | undefined,
  request: Request,
  env: E,
  ctx: ExecutionContext,
): Promise<CallerContext> {
  let answer: unknown;
  try {
    answer = callerOf === undefined ? ctx.props : await callerOf(request, env, ctx);
  } catch (error) {
    console.error("mcp-task-worker: the Worker's caller() threw; the task request is answered 401.", error);
    return {
      ok: false,
      refusal: {
        status: 401,
        error: "unauthenticated",
        message: "Sign in first: this server could not tell who is calling.",
      },
    };
  }
  // No props (a Worker without OAuth) is no caller, not a mistake.
  if (answer === undefined || answer === null) return { ok: true };
  const parsed = CallerSchema.safeParse(answer);
  if (!parsed.success) {
    // Only the adopter's own default may be something else (props of another shape): then nothing is kept.
    if (callerOf === undefined) return { ok: true };
    return invalid(
      "The Worker's durableTasks({ caller }) option returned something other than a JSON object, so no task request is served. Return a plain object (for example { apiKey: ctx.props.apiKey }), or undefined.",
    );
  }
  // workerd's ctx.props is {} where nothing set any: keeping it would cost each task a row for nothing.
  if (Object.keys(parsed.data).length === 0) return { ok: true };
  if (new TextEncoder().encode(JSON.stringify(parsed.data)).byteLength > MAX_CALLER_BYTES)
    return invalid(
      `What the Worker's caller() keeps of a caller is larger than ${MAX_CALLER_BYTES} bytes; keep a key or a reference (resolveCaller), not a profile.`,
    );
  return { ok: true, caller: parsed.data };
}
