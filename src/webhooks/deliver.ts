/**
 * One delivery attempt: a signed POST with a 10 s timeout that never follows redirects.
 * Success is any 2xx answer; anything else is a failure the caller may retry.
 */
import { checkDestination } from "./destination";
import { decodeWebhookSecret, webhookHeaders } from "./sign";
import type { WebhookSettings } from "../config";

export const ATTEMPT_TIMEOUT_MS = 10_000;
const USER_AGENT = "mcp-task-worker-webhooks/1";

export interface Delivery {
  id: string;
  url: string;
  body: string;
}

export type AttemptOutcome =
  | { ok: true; status: number; ms: number }
  /** `permanent`: retrying cannot help (the destination or the server's secret is unusable). */
  | { ok: false; permanent: boolean; detail: string; ms: number };

export async function attemptDelivery(
  delivery: Delivery,
  settings: WebhookSettings,
  now = Date.now,
): Promise<AttemptOutcome> {
  const started = now();
  const key = settings.secret === undefined ? undefined : decodeWebhookSecret(settings.secret);
  if (!key) return { ok: false, permanent: true, detail: "the server has no valid WEBHOOK_SECRET to sign with", ms: 0 };
  // Checked again at delivery: the settings may have changed since the call registered the URL.
  const destination = checkDestination(delivery.url, settings);
  if (!destination.ok)
    return { ok: false, permanent: true, detail: `the destination is refused: ${destination.reason}`, ms: 0 };
  const headers = { ...(await webhookHeaders(key, delivery.id, delivery.body, started)), "user-agent": USER_AGENT };
  try {
    const response = await fetch(destination.url, {
      method: "POST",
      headers,
      body: delivery.body,
      redirect: "manual",
      signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
    });
    // The receiver's body is of no use to us; release the connection.
    await response.body?.cancel().catch(() => undefined);
    const ms = now() - started;
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status, ms };
    const redirect =
      response.status >= 300 && response.status < 400 ? " (redirects are not followed; register the final URL)" : "";
    return { ok: false, permanent: false, detail: `HTTP ${response.status}${redirect}`, ms };
  } catch (error) {
    const ms = now() - started;
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError")
      return { ok: false, permanent: false, detail: `no answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`, ms };
    return {
      ok: false,
      permanent: false,
      detail: `request failed: ${error instanceof Error ? error.message : String(error)}`,
      ms,
    };
  }
}
