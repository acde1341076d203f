/**
 * Who is calling, as the adopter says: its `principal(request, env, ctx)` function (from its own
 * auth: an API key, `ctx.props` of @cloudflare/workers-oauth-provider, the SDK's authInfo). Without
 * one, loopback requests are one anonymous principal, as in the template's `npm run dev`, and any
 * other request is refused with the option to pass. Tasks are bound to the principal for life.
 */
import { ANONYMOUS_PRINCIPAL, isLoopbackRequest } from "../http/origin";

/** The adopter's answer to "who is this?": a stable id, or undefined for a caller it does not know. */
export type PrincipalOf<E = unknown> = (
  request: Request,
  env: E,
  ctx: ExecutionContext,
) => string | undefined | Promise<string | undefined>;

export type Caller =
  | { ok: true; principal: string }
  | { ok: false; refusal: { status: 401 | 403; error: string; message: string } };

const MAX_PRINCIPAL_LENGTH = 256;

const refused = (status: 401 | 403, error: string, message: string): Caller => ({
  ok: false,
  refusal: { status, error, message },
});

export async function resolveCaller<E>(
  principalOf: PrincipalOf<E> | undefined,
  request: Request,
  env: E,
  ctx: ExecutionContext,
): Promise<Caller> {
  if (principalOf === undefined) {
    if (isLoopbackRequest(request)) return { ok: true, principal: ANONYMOUS_PRINCIPAL };
    return refused(
      403,
      "principal_not_configured",
      "Durable tasks are bound to the caller who started them, and this Worker does not say who its callers are, so only loopback requests (local dev) are served. " +
        "Pass durableTasks({ tools, principal: (request, env, ctx) => <the caller's stable id> }), for example ctx.props.userId from @cloudflare/workers-oauth-provider.",
    );
  }
  const principal = await principalOf(request, env, ctx);
  if (principal === undefined || principal === "")
    return refused(401, "unauthenticated", "Sign in first: this server could not tell who is calling.");
  if (principal.length > MAX_PRINCIPAL_LENGTH)
    return refused(
      403,
      "principal_invalid",
      `The principal the Worker's principal() returned is longer than ${MAX_PRINCIPAL_LENGTH} characters; return a short stable id (a user id, not a token).`,
    );
  return { ok: true, principal };
}
