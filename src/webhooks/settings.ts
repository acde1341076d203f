/**
 * Webhook retry timing. The WEBHOOK_* settings are parsed with all the others (src/config.ts,
 * `Settings.webhooks`); the defaults, 14 attempts 10 s apart and doubling, retry for ~22.7 h.
 */
import { MAX_RETRY_DELAY_SECONDS } from "../config";
import { backoff } from "../core";

/** Seconds to wait before attempt `failedAttempts + 1`: base · 2^(failed−1), capped. */
export function webhookRetryDelaySeconds(failedAttempts: number, baseSeconds: number): number {
  return backoff(failedAttempts, baseSeconds, MAX_RETRY_DELAY_SECONDS);
}
