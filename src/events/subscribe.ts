/**
 * `events/subscribe` inside the log's object: an idempotent upsert. A new subscription is checked
 * against the principal's quota and its callback URL must answer the verification challenge (once
 * per principal and URL) before anything is stored; a repeat refreshes it — a new ttl, a new secret
 * (the old one still signs for a while), and a suspended subscription resumes with its backlog.
 */
import type { DestinationPolicy } from "../webhooks/destination";
import { encodeCursor, type Position } from "./cursor";
import { startPosition } from "./log-position";
import type { OccurrenceLog } from "./occurrence-log";
import { ROTATION_OVERLAP_MS } from "./webhook-deliveries";
import { postToSubscriber } from "./webhook-post";
import type { DeliveryError, Subscription, Subscriptions } from "./subscriptions";

export interface SubscribeInput {
  id: string;
  principal: string;
  name: string;
  /** Canonical JSON of the arguments. */
  args: string;
  url: string;
  secret: string;
  after: Position | null;
  maxAgeMs?: number;
  /** When it expires (ms since the epoch), or null for never. */
  expiresAt: number | null;
  maxSubscriptions: number;
}

export interface DeliveryStatus {
  active: boolean;
  lastDeliveryAt: string | null;
  lastError: DeliveryError | null;
  failedSince?: string;
}

export type SubscribeOutcome =
  | {
      kind: "subscribed";
      id: string;
      cursor: string;
      truncated: boolean;
      expiresAt: number | null;
      deliveryStatus: DeliveryStatus;
    }
  | { kind: "exhausted"; limit: number }
  | { kind: "callback_failed"; reason: DeliveryError };

export interface SubscribeContext {
  log: OccurrenceLog;
  subscriptions: Subscriptions;
  policy: DestinationPolicy;
}

const iso = (at: number | null): string | null => (at === null ? null : new Date(at).toISOString());

export const deliveryStatusOf = (sub: Subscription): DeliveryStatus => ({
  active: sub.active,
  lastDeliveryAt: iso(sub.lastDeliveryAt),
  lastError: sub.lastError,
  ...(sub.failedSince !== null && !sub.active && { failedSince: new Date(sub.failedSince).toISOString() }),
});

/** Answers with a 503 or 425 (the receiver not ready yet) are asked again, this many times in all. */
const CHALLENGE_ATTEMPTS = 3;

/** The verification handshake: a signed `{ type: "verification", challenge }`, answered 2xx with the same challenge. */
async function verify(input: SubscribeInput, policy: DestinationPolicy): Promise<DeliveryError | undefined> {
  const challenge = [...crypto.getRandomValues(new Uint8Array(16))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
  const body = JSON.stringify({ type: "verification", challenge });
  let last: DeliveryError = "challenge_failed";
  for (let attempt = 1; attempt <= CHALLENGE_ATTEMPTS; attempt++) {
    const outcome = await postToSubscriber(
      {
        subscriptionId: input.id,
        url: input.url,
        messageId: `msg_verification_${challenge}`,
        body,
        secrets: [input.secret],
      },
      policy,
      true,
    );
    if (outcome.ok) {
      try {
        const answer: unknown = JSON.parse(outcome.text);
        if (typeof answer === "object" && answer !== null && Reflect.get(answer, "challenge") === challenge)
          return undefined;
      } catch {
        // Not JSON: the challenge was not echoed.
      }
      return "challenge_failed";
    }
    last = outcome.error;
    if (outcome.status !== 503 && outcome.status !== 425) return last;
    await new Promise((resolve) => setTimeout(resolve, 250 * attempt));
  }
  return last;
}

export async function upsertSubscription(
  ctx: SubscribeContext,
  input: SubscribeInput,
  now: number,
): Promise<SubscribeOutcome> {
  ctx.log.nameType(input.name);
  const epoch = ctx.log.epoch;
  const existing = ctx.subscriptions.get(input.id);
  if (existing) {
    const rotated = existing.secret !== input.secret;
    const refreshed: Subscription = {
      ...existing,
      expiresAt: input.expiresAt,
      secret: input.secret,
      previousSecret: rotated ? existing.secret : existing.previousSecret,
      previousUntil: rotated ? now + ROTATION_OVERLAP_MS : existing.previousUntil,
      // A refresh resumes a suspended subscription, its backlog first.
      ...(!existing.active && { active: true, attempts: 0, nextAt: now }),
    };
    ctx.subscriptions.put(refreshed);
    return {
      kind: "subscribed",
      id: refreshed.id,
      cursor: encodeCursor({ epoch, seq: refreshed.watermark }),
      truncated: refreshed.watermark < ctx.log.pruned(),
      expiresAt: refreshed.expiresAt,
      deliveryStatus: deliveryStatusOf(refreshed),
    };
  }
  if (ctx.subscriptions.countFor(input.principal) >= input.maxSubscriptions)
    return { kind: "exhausted", limit: input.maxSubscriptions };
  if (!ctx.subscriptions.urlVerified(input.principal, input.url)) {
    const failure = await verify(input, ctx.policy);
    if (failure !== undefined) return { kind: "callback_failed", reason: failure };
  }
  const start = startPosition(ctx.log, input.after, input.maxAgeMs, now);
  const sub: Subscription = {
    id: input.id,
    principal: input.principal,
    name: input.name,
    args: input.args,
    url: input.url,
    secret: input.secret,
    previousSecret: null,
    previousUntil: null,
    expiresAt: input.expiresAt,
    watermark: start.from,
    verified: true,
    active: true,
    attempts: 0,
    nextAt: now,
    lastDeliveryAt: null,
    lastError: null,
    failedSince: null,
    createdAt: now,
  };
  // Verification awaited a fetch: another subscribe of the same id may have stored it meanwhile.
  if (ctx.subscriptions.get(input.id) === undefined) ctx.subscriptions.put(sub);
  return {
    kind: "subscribed",
    id: sub.id,
    cursor: encodeCursor({ epoch, seq: sub.watermark }),
    truncated: start.truncated,
    expiresAt: sub.expiresAt,
    deliveryStatus: deliveryStatusOf(sub),
  };
}
