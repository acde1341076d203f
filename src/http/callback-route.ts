/**
 * `POST /callbacks/{objectId}/{name}/{token}/{expiresAt}/{signature}`: where an outside system
 * delivers what a job waits for (`job.callback`). No auth: the URL is the capability, signed under a
 * key from CALLER_KEY (checked here, before any object is reached) over a token of 256 random bits
 * the task checks in constant time, good once and until it expires. Without CALLER_KEY the URL is
 * `/callbacks/{objectId}/{name}/{token}`, checked by the task alone. Bad input answers 4xx and changes nothing. The
 * task's owner may complete a callback too, behind auth (`POST /tasks/{id}/callbacks/{name}`).
 */
import { Hono, type Context } from "hono";
import { MAX_CALLBACK_BODY_BYTES, type CallbackOutcome, type TaskObjectsEnv } from "../core";
import { readBodyWithLimit } from "./body";
import type { AppEnv, TaskRoutesEnv } from "./env";
import { parseJsonInput } from "./json-input";
import { hasJsonContentType } from "./media-types";
import { callbackKeys, verifyCallback } from "../jobs/callback-signature";

const OBJECT_ID = /^[0-9a-f]{64}$/;
const TOKEN = /^[0-9a-f]{64}$/;
/** A signed URL's expiry: ms since the epoch. */
const EXPIRES_AT = /^[0-9]{1,15}$/;

type CallbackEnv = AppEnv<TaskObjectsEnv>;

// Unknown and forged are one answer: nothing tells a guesser which part of the URL was wrong.
const UNKNOWN = { error: "unknown_callback", message: "No such callback: the URL is not one a task handed out." };

/** The JSON body of a POST to a callback, or the refusal to answer with. */
async function readCallbackBody<E extends AppEnv<object>>(
  c: Context<E>,
): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const refuse = (status: number, error: string, message: string) => ({
    ok: false as const,
    response: Response.json({ error, message }, { status }),
  });
  if (!hasJsonContentType(c.req.raw)) {
    return refuse(
      415,
      "unsupported_media_type",
      "Send the callback's body as JSON, with Content-Type: application/json.",
    );
  }
  const read = await readBodyWithLimit(c.req.raw, MAX_CALLBACK_BODY_BYTES);
  if (!read.ok) return refuse(read.status, read.status === 413 ? "too_large" : "bad_body", read.message);
  const parsed = parseJsonInput(read.text);
  if (!parsed.ok) return refuse(400, "bad_json", parsed.message);
  return { ok: true, value: parsed.value };
}

/** How a callback's outcome is answered, to its URL and to the task's owner alike. */
function answer(outcome: CallbackOutcome): Response {
  switch (outcome) {
    case "received":
      return Response.json({ received: true }, { status: 202 });
    case "unknown":
      return Response.json(UNKNOWN, { status: 404 });
    case "used":
      return Response.json(
        { error: "callback_used", message: "This callback was already used: each callback takes one POST." },
        { status: 409 },
      );
    case "expired":
      return Response.json(
        { error: "callback_expired", message: "This callback expired: the task stopped waiting for it." },
        { status: 410 },
      );
  }
}

export const callbackRoutes = new Hono<CallbackEnv>();

/** Delivers a checked POST to the task's object, which checks the token, its single use and expiry. */
async function deliver(c: Context<CallbackEnv>, objectId: string, name: string, token: string, signed: boolean) {
  const body = await readCallbackBody(c);
  if (!body.ok) return body.response;
  let id: DurableObjectId;
  try {
    id = c.env.TASKS.idFromString(objectId);
  } catch {
    return answer("unknown");
  }
  return answer(await c.env.TASKS.get(id).callback(name, token, body.value, signed));
}

// A signed URL: its signature and expiry are checked here, so a forged or expired one reaches no object.
callbackRoutes.post("/callbacks/:objectId/:name/:token/:expiresAt/:signature", async (c) => {
  // hono hands the name decoded from the path.
  const { objectId, name, token, expiresAt, signature } = c.req.param();
  if (!OBJECT_ID.test(objectId) || !TOKEN.test(token) || name.length > 600 || !EXPIRES_AT.test(expiresAt))
    return answer("unknown");
  const claim = { objectId, name, token, expiresAt: Number(expiresAt) };
  if (!(await verifyCallback(await callbackKeys(c.env), claim, signature))) return answer("unknown");
  if (Date.now() >= claim.expiresAt) return answer("expired");
  return deliver(c, objectId, name, token, true);
});

// An unsigned URL (opened without CALLER_KEY, or by the release before signatures): the object checks its token.
callbackRoutes.post("/callbacks/:objectId/:name/:token", async (c) => {
  const { objectId, name, token } = c.req.param();
  if (!OBJECT_ID.test(objectId) || !TOKEN.test(token) || name.length > 600) return answer("unknown");
  return deliver(c, objectId, name, token, false);
});

/**
 * `POST /tasks/{taskId}/callbacks/{name}` (task-routes.ts, behind auth): the task's owner completes
 * one of its callbacks themselves, with the same body rules; their principal is the proof.
 */
export async function completeCallbackAsOwner(
  c: Context<TaskRoutesEnv>,
  complete: (taskId: string, name: string, body: unknown) => Promise<CallbackOutcome>,
): Promise<Response> {
  const body = await readCallbackBody(c);
  if (!body.ok) return body.response;
  return answer(await complete(c.req.param("taskId") ?? "", c.req.param("name") ?? "", body.value));
}
