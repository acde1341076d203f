/**
 * The delivery loop of one event log's webhook subscriptions, run from the log's alarm: each due
 * subscription gets its next matching occurrences in order, one POST at a time, its watermark moved
 * only past what its receiver took (2xx) — so an occurrence reaches it at least once, across crashes
 * and deploys (the alarm survives both). A failed POST is retried on a schedule; after the last
 * retry the subscription is suspended (`active: false`) with its backlog kept, and a refresh resumes
 * it. `410` ends the subscription, `413` skips that occurrence; neither is retried.
 */
import { isRecord } from "../json";
import type { DestinationPolicy } from "../webhooks/destination";
import { encodeCursor } from "./cursor";
import type { EventType } from "./event-type";
import type { Occurrence, OccurrenceLog } from "./occurrence-log";
import { MAX_DELIVERY_BYTES, postToSubscriber, type PostOutcome } from "./webhook-post";
import type { Subscription, Subscriptions } from "./subscriptions";

/** Waits before each retry of a failed delivery: 6 attempts over about 12.5 minutes, then suspension. */
export const RETRY_DELAYS_MS: readonly number[] = [1000, 5000, 30_000, 120_000, 600_000];
/** A rotated-out secret still signs for this long after the refresh that replaced it. */
export const ROTATION_OVERLAP_MS = 3600_000;
/** Occurrences one subscription is sent per turn before the others get theirs. */
const PER_TURN = 24;
/**
 * Occurrences of one subscription in flight at once. Webhook order is best effort in the extension;
 * a window keeps a burst (50 tasks ending together) from waiting on one round trip each.
 */
const WINDOW = 6;
/** POSTs in flight at once from one log (a Worker invocation opens at most 6 connections at once). */
const CONCURRENCY = 6;

export interface DeliveryContext {
  log: OccurrenceLog;
  subscriptions: Subscriptions;
  type: EventType | undefined;
  policy: DestinationPolicy;
  now: () => number;
}

export const signingSecrets = (
  sub: Pick<Subscription, "secret" | "previousSecret" | "previousUntil">,
  now: number,
): string[] =>
  sub.previousSecret !== null && sub.previousUntil !== null && sub.previousUntil > now
    ? [sub.secret, sub.previousSecret]
    : [sub.secret];

const controlId = (kind: string): string =>
  `msg_${kind}_${[...crypto.getRandomValues(new Uint8Array(12))].map((b) => b.toString(16).padStart(2, "0")).join("")}`;

/** The webhook body of one occurrence (`cursor`: the position after it). */
export function occurrenceBody(occurrence: Occurrence, epoch: string): string {
  return JSON.stringify({
    eventId: occurrence.eventId,
    name: occurrence.name,
    timestamp: new Date(occurrence.at).toISOString(),
    data: occurrence.data,
    cursor: encodeCursor({ epoch, seq: occurrence.seq }),
  });
}

/** Delivers what is due to every subscription, a few at a time; resolves when this turn is done. */
export async function deliverDue(ctx: DeliveryContext, budgetMs: number): Promise<void> {
  const started = ctx.now();
  for (;;) {
    const due = ctx.subscriptions.due(ctx.now(), ctx.log.lastSeq(), 200);
    if (due.length === 0 || ctx.now() - started > budgetMs) return;
    let next = 0;
    const worker = async (): Promise<void> => {
      for (let sub = due[next++]; sub !== undefined; sub = due[next++]) await deliverTo(ctx, sub);
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, due.length) }, worker));
  }
}

function failed(ctx: DeliveryContext, sub: Subscription, outcome: Extract<PostOutcome, { ok: false }>): void {
  const now = ctx.now();
  const attempts = sub.attempts + 1;
  const delay = RETRY_DELAYS_MS[attempts - 1];
  ctx.subscriptions.record(sub.id, {
    ...sub,
    attempts,
    lastError: outcome.error,
    failedSince: sub.failedSince ?? now,
    // Past the last retry (or a destination our rules refuse): suspended until the client refreshes.
    active: delay !== undefined && outcome.refused !== true,
    nextAt: now + (delay ?? 0),
  });
}

async function deliverTo(ctx: DeliveryContext, start: Subscription): Promise<void> {
  let sub = start;
  const epoch = ctx.log.epoch;
  const pruned = ctx.log.pruned();
  const post = (messageId: string, body: string) =>
    postToSubscriber(
      { subscriptionId: sub.id, url: sub.url, messageId, body, secrets: signingSecrets(sub, ctx.now()) },
      ctx.policy,
    );
  if (sub.watermark < pruned) {
    // What lay between was pruned before it could be delivered: say so, then go on from what is held.
    const outcome = await post(
      controlId("gap"),
      JSON.stringify({ type: "gap", cursor: encodeCursor({ epoch, seq: pruned }) }),
    );
    if (!outcome.ok) return failed(ctx, sub, outcome);
    sub = { ...sub, watermark: pruned };
  }
  const args: unknown = JSON.parse(sub.args);
  const argsObject = isRecord(args) ? args : {};
  const wanted = (occurrence: Occurrence): string | undefined => {
    const matched =
      ctx.type !== undefined &&
      occurrence.name === sub.name &&
      ctx.type.visible(sub.principal, occurrence.data) &&
      ctx.type.matches(argsObject, occurrence.data);
    const body = matched ? occurrenceBody(occurrence, epoch) : undefined;
    return body !== undefined && new TextEncoder().encode(body).byteLength <= MAX_DELIVERY_BYTES ? body : undefined;
  };
  for (let sent = 0; sent < PER_TURN; ) {
    // The next few matching occurrences, sent at once (a window); what matches nothing is passed over.
    const window: { occurrence: Occurrence; body: string }[] = [];
    let passed = sub.watermark;
    for (const occurrence of ctx.log.after(sub.watermark, 100)) {
      const body = wanted(occurrence);
      if (body !== undefined) window.push({ occurrence, body });
      else if (window.length === 0) passed = occurrence.seq;
      if (window.length >= WINDOW) break;
    }
    sub = { ...sub, watermark: passed };
    if (window.length === 0) break;
    const outcomes = await Promise.all(window.map(({ occurrence, body }) => post(occurrence.eventId, body)));
    // The watermark moves over the window in order and stops at the first failure: what was taken
    // after it is sent again with it (at least once, never lost).
    for (const [index, outcome] of outcomes.entries()) {
      const seq = window[index]?.occurrence.seq ?? sub.watermark;
      if (!outcome.ok && outcome.status === 410) {
        // The receiver no longer wants it (or its client let the subscription lapse).
        ctx.subscriptions.remove(sub.id);
        return;
      }
      if (!outcome.ok && outcome.status !== 413) {
        ctx.subscriptions.record(sub.id, sub);
        return failed(ctx, sub, outcome);
      }
      const now = ctx.now();
      sub = outcome.ok
        ? { ...sub, watermark: seq, attempts: 0, lastDeliveryAt: now, failedSince: null, nextAt: now }
        : { ...sub, watermark: seq, attempts: 0, lastError: "http_4xx", nextAt: now };
    }
    // Stored after every window: a crash now repeats at most the window in flight.
    if (!ctx.subscriptions.record(sub.id, sub)) return;
    sent += window.length;
  }
  ctx.subscriptions.record(sub.id, sub);
}

/** A subscription whose event type this server no longer serves: told so, then removed. */
export async function terminate(
  ctx: DeliveryContext,
  sub: Subscription,
  error: { code: number; message: string; data?: unknown },
): Promise<void> {
  await postToSubscriber(
    {
      subscriptionId: sub.id,
      url: sub.url,
      messageId: controlId("terminated"),
      body: JSON.stringify({ type: "terminated", error }),
      secrets: signingSecrets(sub, ctx.now()),
    },
    ctx.policy,
  );
  ctx.subscriptions.remove(sub.id);
}
