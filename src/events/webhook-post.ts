/**
 * One POST to a subscription's callback URL, exactly as the client gave it (query string included),
 * signed the Standard Webhooks way with the subscription's own `whsec_` secret (both secrets during
 * a rotation), with `X-MCP-Subscription-Id`; redirects are never followed and the destination is
 * checked again at the moment of sending. Failures come back as the extension's categories only:
 * what the receiver said is never stored or shown.
 */
import type { DestinationPolicy } from "../webhooks/destination";
import { checkDestination } from "../webhooks/destination";
import { decodeWebhookSecret, signPayload } from "../webhooks/sign";
import type { DeliveryError } from "./subscriptions";

export const POST_TIMEOUT_MS = 10_000;
/** The extension's bound on one delivery's body. */
export const MAX_DELIVERY_BYTES = 256 * 1024;
const USER_AGENT = "mcp-task-worker-events/1";

export interface Post {
  subscriptionId: string;
  url: string;
  /** The `webhook-id`: the occurrence's eventId, or a control message's own id. */
  messageId: string;
  body: string;
  secrets: readonly string[];
}

export type PostOutcome =
  | { ok: true; status: number; text: string }
  | { ok: false; error: DeliveryError; status?: number; refused?: boolean };

/** `v1,<sig>` for each secret, space-separated (Standard Webhooks: any one may verify). */
async function signatures(secrets: readonly string[], id: string, timestamp: number, body: string): Promise<string> {
  const signed: string[] = [];
  for (const secret of secrets) {
    const key = decodeWebhookSecret(secret);
    if (key) signed.push(await signPayload(key, id, timestamp, body));
  }
  return signed.join(" ");
}

export async function postToSubscriber(post: Post, policy: DestinationPolicy, readBody = false): Promise<PostOutcome> {
  const destination = checkDestination(post.url, policy);
  if (!destination.ok) return { ok: false, error: "connection_refused", refused: true };
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const response = await fetch(post.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "webhook-id": post.messageId,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": await signatures(post.secrets, post.messageId, timestamp, post.body),
        "X-MCP-Subscription-Id": post.subscriptionId,
      },
      body: post.body,
      redirect: "manual",
      signal: AbortSignal.timeout(POST_TIMEOUT_MS),
    });
    // Only a verification answer is read, and only its first 4 KiB.
    const text = readBody ? (await response.text()).slice(0, 4096) : "";
    if (!readBody) await response.body?.cancel().catch(() => undefined);
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status, text };
    return { ok: false, error: response.status >= 500 ? "http_5xx" : "http_4xx", status: response.status };
  } catch (error) {
    const name = error instanceof Error ? error.name : "";
    if (name === "TimeoutError" || name === "AbortError") return { ok: false, error: "timeout" };
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, error: /tls|ssl|certificate/i.test(message) ? "tls_error" : "connection_refused" };
  }
}
