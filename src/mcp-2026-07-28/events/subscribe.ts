/**
 * `events/subscribe` and `events/unsubscribe`: webhook subscriptions, an idempotent upsert keyed by
 * (principal, callback URL, name, canonical arguments). Only an authenticated principal may have
 * the server POST elsewhere; the anonymous principal of local dev may only name a loopback callback
 * (with WEBHOOK_ALLOW_LOOPBACK), so an unauthenticated caller can never aim the server at a third party.
 */
import * as z from "zod";
import { callbackFailed, exhausted, forbidden, invalidEventParams } from "../../events/errors";
import { canonicalJson, subscriptionId } from "../../events/subscription-id";
import { isPerTaskPrincipal } from "../../core";
import { ANONYMOUS_PRINCIPAL } from "../../http/origin";
import type { JsonObject } from "../../json";
import { checkDestination } from "../../webhooks/destination";
import { decodeWebhookSecret } from "../../webhooks/sign";
import type { Context20260728 } from "../context";
import { Arguments, Cursor, EventName, logFor, MaxAgeMs, parse, subject } from "./params";

/** The shortest ttl a subscription gets, whatever it asks for. */
export const MIN_TTL_MS = 60_000;

const Url = z.string().min(1).max(2048);
const SubscribeParams = z
  .object({
    name: EventName,
    arguments: Arguments,
    delivery: z.object({ mode: z.string().max(32), url: Url, secret: z.string().max(200) }).loose(),
    cursor: Cursor,
    maxAgeMs: MaxAgeMs,
    ttlMs: z.number().int().positive().nullable().optional(),
  })
  .loose();

const UnsubscribeParams = z
  .object({ name: EventName, arguments: Arguments, delivery: z.object({ url: Url }).loose() })
  .loose();

/** `whsec_` + base64 of 24 to 64 random bytes (the extension's rule). */
function checkSecret(secret: string): void {
  const key = secret.startsWith("whsec_") ? decodeWebhookSecret(secret) : undefined;
  if (!key || key.length < 24 || key.length > 64)
    throw invalidEventParams("delivery.secret must be whsec_ followed by base64 of 24 to 64 random bytes.");
}

function checkCallback(ctx: Context20260728, url: string): void {
  const destination = checkDestination(url, ctx.settings.webhooks);
  if (!destination.ok) throw invalidEventParams(`delivery.url is refused: ${destination.reason}.`);
  const signedIn = ctx.principal !== ANONYMOUS_PRINCIPAL && !isPerTaskPrincipal(ctx.principal);
  if (!signedIn && !isLoopbackHost(destination.url.hostname))
    throw forbidden(
      "webhook subscriptions need an authenticated principal (an API key or OAuth); without one, use events/poll or events/stream.",
    );
}

const isLoopbackHost = (host: string): boolean => /^127\.|^\[::1\]$|(^|\.)localhost\.?$/i.test(host);

export async function subscribeEvents(ctx: Context20260728, params: Record<string, unknown>): Promise<JsonObject> {
  const request = parse(SubscribeParams, "events/subscribe", params);
  const { type, args, after } = subject(request.name, request.arguments, request.cursor, "webhook");
  if (request.delivery.mode !== "webhook")
    throw invalidEventParams('delivery.mode must be "webhook" (poll with events/poll, push with events/stream).');
  checkCallback(ctx, request.delivery.url);
  checkSecret(request.delivery.secret);
  const { subscriptionTtlMs, maxSubscriptions } = ctx.settings.events;
  const now = Date.now();
  const ttl =
    request.ttlMs === null
      ? null
      : Math.min(Math.max(request.ttlMs ?? subscriptionTtlMs, MIN_TTL_MS), subscriptionTtlMs);
  const id = await subscriptionId(ctx.principal, request.delivery.url, type.name, args);
  const outcome = await logFor(ctx, type).subscribe({
    id,
    principal: ctx.principal,
    name: type.name,
    args: canonicalJson(args),
    url: request.delivery.url,
    secret: request.delivery.secret,
    after,
    ...(request.maxAgeMs !== undefined && { maxAgeMs: request.maxAgeMs }),
    expiresAt: ttl === null ? null : now + ttl,
    maxSubscriptions,
  });
  if (outcome.kind === "exhausted")
    throw exhausted(
      `this principal holds ${outcome.limit} subscriptions to "${type.name}", the most allowed; unsubscribe some first.`,
      outcome.limit,
    );
  if (outcome.kind === "callback_failed") throw callbackFailed(outcome.reason);
  return {
    id: outcome.id,
    refreshBefore: outcome.expiresAt === null ? null : new Date(outcome.expiresAt).toISOString(),
    cursor: outcome.cursor,
    truncated: outcome.truncated,
    deliveryStatus: { ...outcome.deliveryStatus },
  };
}

export async function unsubscribeEvents(ctx: Context20260728, params: Record<string, unknown>): Promise<JsonObject> {
  const request = parse(UnsubscribeParams, "events/unsubscribe", params);
  const { type, args } = subject(request.name, request.arguments, null, "webhook");
  const id = await subscriptionId(ctx.principal, request.delivery.url, type.name, args);
  // Idempotent: an unknown subscription (or another principal's, which is one) is already gone.
  await logFor(ctx, type).unsubscribe(id, ctx.principal);
  return {};
}
