/**
 * The consent form's answer (`POST /authorize`): a handle and a decision, a few hundred bytes. Read
 * like every other body (body.ts): refused early past CONSENT_FORM_MAX_BYTES, whether the length is
 * declared or the body streams, with a 413; an unreadable or non-UTF-8 body is a 400, another media
 * type a 415.
 */
import { readBodyWithLimit } from "./body";

export const CONSENT_FORM_MAX_BYTES = 8 * 1024;

export type ConsentForm = { ok: true; form: URLSearchParams } | { ok: false; status: 400 | 413 | 415; message: string };

export async function readConsentForm(request: Request): Promise<ConsentForm> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]?.trim().toLowerCase();
  // Left unread (as body.ts leaves what is past its cap): the runtime drops it with the answer.
  if (type !== "application/x-www-form-urlencoded") {
    return { ok: false, status: 415, message: "The consent form is sent as application/x-www-form-urlencoded." };
  }
  const body = await readBodyWithLimit(request, CONSENT_FORM_MAX_BYTES);
  if (!body.ok) return body;
  return { ok: true, form: new URLSearchParams(body.text) };
}
