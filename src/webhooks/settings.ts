/**
 * Webhook settings (wrangler vars/secrets; names and defaults in docs/settings.md),
 * read with their documented defaults. Kept beside the webhook code so the core settings stay small.
 */
import { intVar, listVar, readVar, type Vars } from "../config";
import { backoff } from "../core";

export interface WebhookSettings {
  /** `whsec_<base64>`; without it the server refuses webhook registrations (it could not sign them). */
  secret?: string;
  /** Allow plain `http` (and any port) to loopback addresses: local dev and tests only. */
  allowLoopback: boolean;
  /** Non-default ports a destination may use (WEBHOOK_ALLOWED_PORTS, comma-separated). */
  allowedPorts: number[];
  /** Delay before the first retry; each later retry doubles it (capped at MAX_RETRY_DELAY_SECONDS). */
  retryBaseSeconds: number;
  /** Delivery attempts per event, the first included. */
  maxAttempts: number;
}

/** One retry never waits longer than 12 h: within the Queues `delaySeconds` limit (limits page: 12 h, now 24 h). */
export const MAX_RETRY_DELAY_SECONDS = 12 * 3600;
/** The consumer's `max_retries` in wrangler.toml is 100 (the platform maximum), so attempts cannot exceed 101. */
export const MAX_ATTEMPTS_LIMIT = 100;
/** Defaults: 14 attempts 10 s apart, doubling: the last retry comes ~22.7 h after the first try. */
export const DEFAULT_RETRY_BASE_SECONDS = 10;
export const DEFAULT_MAX_ATTEMPTS = 14;

const truthy = (value: unknown): boolean => value === true || (typeof value === "string" && /^(1|true|yes|on)$/i.test(value.trim()));

export function readWebhookSettings(vars: Vars): WebhookSettings {
  const raw = readVar(vars, "WEBHOOK_SECRET");
  const secret = typeof raw === "string" && raw !== "" ? raw : undefined;
  return {
    ...(secret !== undefined && { secret }),
    allowLoopback: truthy(readVar(vars, "WEBHOOK_ALLOW_LOOPBACK")),
    allowedPorts: listVar(vars, "WEBHOOK_ALLOWED_PORTS").map(Number).filter((port) => Number.isInteger(port) && port > 0 && port < 65536),
    retryBaseSeconds: intVar(vars, "WEBHOOK_RETRY_BASE_SECONDS", DEFAULT_RETRY_BASE_SECONDS, 0, MAX_RETRY_DELAY_SECONDS),
    maxAttempts: intVar(vars, "WEBHOOK_MAX_ATTEMPTS", DEFAULT_MAX_ATTEMPTS, 1, MAX_ATTEMPTS_LIMIT),
  };
}

/** Seconds to wait before attempt `failedAttempts + 1`: base · 2^(failed−1), capped. */
export function webhookRetryDelaySeconds(failedAttempts: number, baseSeconds: number): number {
  return backoff(failedAttempts, baseSeconds, MAX_RETRY_DELAY_SECONDS);
}
