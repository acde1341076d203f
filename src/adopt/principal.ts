/**
 * Who is calling, as the adopter says: its `principal(request, env, ctx)` function (from its own
 * auth: an API key, `ctx.props` of @cloudflare/workers-oauth-provider, the SDK's authInfo), or
 * "per-task" for a server with no sign-in (each task its own capability: core/model/per-task.ts).
 * Without either, loopback requests are one anonymous principal, as in the template's `npm run dev`,
 * and any other request is refused with the options to pass. Tasks are bound to the principal for
 * life, so what the function answers is checked here, at the edge, before anything is stored under it.
 */
import { PER_TASK_PRINCIPAL } from "../core";
import { ANONYMOUS_PRINCIPAL, isLoopbackRequest } from "../http/origin";

/** The adopter's answer to "who is this?": a stable id, or undefined for a caller it does not know. */
export type PrincipalOf<E = unknown> = (
  request: Request,
  env: E,
  ctx: ExecutionContext,
) => string | undefined | Promise<string | undefined>;

/**
 * `durableTasks({ principal })`: the adopter's function, or "per-task": every caller, loopback or
 * not, may create tasks, and reads each by its unguessable id alone; nothing is listed.
 */
export type PrincipalOption<E = unknown> = PrincipalOf<E> | "per-task";

export type Caller =
  | { ok: true; principal: string }
  | { ok: false; refusal: { status: 401 | 403; error: string; message: string } };

const MAX_PRINCIPAL_LENGTH = 256;

const refused = (status: 401 | 403, error: string, message: string): Caller => ({
  ok: false,
  refusal: { status, error, message },
});

/** What a value is, in words for a log line and a refusal ("a number", "an object"). */
const kindOf = (value: unknown): string =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "an array"
      : typeof value === "object"
        ? "an object"
        : `a ${typeof value}`;

const unknownCaller = (): Caller =>
  refused(401, "unauthenticated", "Sign in first: this server could not tell who is calling.");

/**
 * The adopter's function, called so that nothing it does reaches the caller: a throw (its auth
 * backend down, `ctx.props.userId` where no props exist) is logged here with its cause and answered
 * as a caller it could not name, 401, in words that reveal nothing of it (a 4xx: the request, not the
 * server, is what could not be served; an adopter that wants an outage to be a 503 answers it in its
 * own middleware before tasks.fetch). What is not a string is refused (403), never stored.
 */
async function askAdopter<E>(
  principalOf: PrincipalOf<E>,
  request: Request,
  env: E,
  ctx: ExecutionContext,
): Promise<Caller> {
  // Typed as the adopter's JavaScript may really answer, whatever its declared type says.
  let answer: unknown;
  try {
    answer = await principalOf(request, env, ctx);
  } catch (error) {
    console.error("mcp-task-worker: the Worker's principal() threw; the task request is answered 401.", error);
    return unknownCaller();
  }
  // null is how much JavaScript says "nobody": the same as undefined.
  if (answer === undefined || answer === null || answer === "") return unknownCaller();
  if (typeof answer !== "string") {
    // Refused, not converted: String(object) is "[object Object]" for every caller, and a number
    // the adopter meant as an id is theirs to spell (String(user.id)), once, where both lanes see it.
    console.error(`mcp-task-worker: the Worker's principal() returned ${kindOf(answer)}, not a string id.`);
    return refused(
      403,
      "principal_invalid",
      `The Worker's durableTasks({ principal }) option returned ${kindOf(answer)} instead of a string id, so no task request is served. ` +
        "Return a short stable string (for example String(user.id)), or undefined for a caller it does not know.",
    );
  }
  // The per-task mode's principal is every anonymous caller's: a function's answer must not join them.
  if (answer === PER_TASK_PRINCIPAL)
    return refused(
      403,
      "principal_invalid",
      `The Worker's principal() returned ${JSON.stringify(PER_TASK_PRINCIPAL)}, the name durableTasks({ principal: "per-task" }) keeps for callers without sign-in; return the caller's own id.`,
    );
  if (answer.length > MAX_PRINCIPAL_LENGTH)
    return refused(
      403,
      "principal_invalid",
      `The principal the Worker's principal() returned is longer than ${MAX_PRINCIPAL_LENGTH} characters; return a short stable id (a user id, not a token).`,
    );
  return { ok: true, principal: answer };
}

export async function resolveCaller<E>(
  principalOf: PrincipalOption<E> | undefined,
  request: Request,
  env: E,
  ctx: ExecutionContext,
): Promise<Caller> {
  if (principalOf === "per-task") return { ok: true, principal: PER_TASK_PRINCIPAL };
  if (principalOf !== undefined) return askAdopter(principalOf, request, env, ctx);
  if (isLoopbackRequest(request)) return { ok: true, principal: ANONYMOUS_PRINCIPAL };
  return refused(
    403,
    "principal_not_configured",
    "Durable tasks are bound to the caller who started them, and this Worker does not say who its callers are, so only loopback requests (local dev) are served. " +
      "Pass durableTasks({ tools, principal: (request, env, ctx) => <the caller's stable id> }), for example ctx.props.userId from @cloudflare/workers-oauth-provider; " +
      'or, for a server with no sign-in, durableTasks({ tools, principal: "per-task" }): each task readable by its unguessable id alone, none listed (docs/adopting.md).',
  );
}
