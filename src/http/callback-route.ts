/**
 * `POST /callbacks/{objectId}/{name}/{token}`: where an outside system delivers what a job waits
 * for (`job.callback`). No auth: the URL is the capability (256 random bits the task checks in
 * constant time), good once and until it expires. Bad input answers 4xx and changes nothing.
 */
import { Hono, type Context } from "hono";
import { MAX_CALLBACK_BODY_BYTES, type TaskObjectsEnv } from "../core";
import { readBodyWithLimit } from "./body";
import type { AppEnv } from "./env";
import { parseJsonInput } from "./json-input";
import { hasJsonContentType } from "./media-types";

const OBJECT_ID = /^[0-9a-f]{64}$/;
const TOKEN = /^[0-9a-f]{64}$/;

type CallbackEnv = AppEnv<TaskObjectsEnv>;

const refusal = (c: Context<CallbackEnv>, status: 400 | 404 | 409 | 410 | 413 | 415, error: string, message: string) =>
  c.json({ error, message }, status);

// Unknown and forged are one answer: nothing tells a guesser which part of the URL was wrong.
const unknown = (c: Context<CallbackEnv>) =>
  refusal(c, 404, "unknown_callback", "No such callback: the URL is not one a task handed out.");

export const callbackRoutes = new Hono<CallbackEnv>();

callbackRoutes.post("/callbacks/:objectId/:name/:token", async (c) => {
  const { objectId, name, token } = c.req.param();
  if (!OBJECT_ID.test(objectId) || !TOKEN.test(token) || name.length > 600) return unknown(c);
  if (!hasJsonContentType(c.req.raw)) {
    return refusal(
      c,
      415,
      "unsupported_media_type",
      "Send the callback's body as JSON, with Content-Type: application/json.",
    );
  }
  const read = await readBodyWithLimit(c.req.raw, MAX_CALLBACK_BODY_BYTES);
  if (!read.ok) return refusal(c, read.status, read.status === 413 ? "too_large" : "bad_body", read.message);
  const parsed = parseJsonInput(read.text);
  if (!parsed.ok) return refusal(c, 400, "bad_json", parsed.message);
  let id: DurableObjectId;
  try {
    id = c.env.TASKS.idFromString(objectId);
  } catch {
    return unknown(c);
  }
  // hono hands the name decoded from the path.
  const outcome = await c.env.TASKS.get(id).callback(name, token, parsed.value);
  switch (outcome) {
    case "received":
      return c.json({ received: true }, 202);
    case "unknown":
      return unknown(c);
    case "used":
      return refusal(c, 409, "callback_used", "This callback was already used: each callback URL takes one POST.");
    case "expired":
      return refusal(c, 410, "callback_expired", "This callback expired: the task stopped waiting for it.");
  }
});
