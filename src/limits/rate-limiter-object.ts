/**
 * RateLimiterObject: one token bucket per principal, so the limit holds across every isolate
 * and region. Kept in memory: an evicted object restarts with a full bucket, which only an
 * idle (hence refilled) or redeployed principal ever sees.
 */
import { DurableObject } from "cloudflare:workers";

export type RateVerdict = { ok: true; remaining: number } | { ok: false; retryAfterSeconds: number };

export class RateLimiterObject extends DurableObject<Env> {
  private tokens = Number.NaN;
  private updatedAt = 0;

  /** Take one token from a bucket of `burst` tokens refilled at `perMinute` per minute. */
  async take(perMinute: number, burst: number): Promise<RateVerdict> {
    const now = Date.now();
    const perMs = perMinute / 60_000;
    this.tokens = Number.isNaN(this.tokens) ? burst : Math.min(burst, this.tokens + (now - this.updatedAt) * perMs);
    this.updatedAt = now;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { ok: true, remaining: Math.floor(this.tokens) };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - this.tokens) / perMs / 1000)) };
  }
}
