/**
 * `POST /callbacks/{objectId}/{name}/{token}`: where an outside system delivers what a job waits
 * for (`job.callback`). No auth: the URL is the capability (256 random bits the task checks in
 * constant time), good once and until it expires. Bad input answers 4xx and changes nothing. The
 * task's owner may complete a callback too, behind auth (`POST /tasks/{id}/callbacks/{name}`).
 */
import { Hono, type Context } from "hono";
import { MAX_CALLBACK_BODY_BYTES, type CallbackOutcome, type TaskObjectsEnv } from "../core";
import { readBodyWithLimit } from "./body";
import type { AppEnv, TaskRoutesEnv } from "./env";
import { parseJsonInput } from "./json-input";
import { hasJsonContentType } from "./media-types";

const OBJECT_ID = /^[0-9a-f]{64}$/;
const TOKEN = /^[0-9a-f]{64}$/;

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

callbackRoutes.post("/callbacks/:objectId/:name/:token", async (c) => {
  const { objectId, name, token } = c.req.param();
  if (!OBJECT_ID.test(objectId) || !TOKEN.test(token) || name.length > 600) return answer("unknown");
  const body = await readCallbackBody(c);
  if (!body.ok) return body.response;
  let id: DurableObjectId;
  try {
    id = c.env.TASKS.idFromString(objectId);
  } catch {
    return answer("unknown");
  }
  // hono hands the name decoded from the path.
  return answer(await c.env.TASKS.get(id).callback(name, token, body.value));
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
