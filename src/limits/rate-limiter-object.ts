/**
 * RateLimiterObject: one token bucket per principal, so the limit holds across every isolate
 * and region. Isolates lease a few tokens per round trip (token-lease.ts, over src/leases/). Kept in memory: an
 * evicted object restarts with a full bucket, which only an idle (hence refilled) or
 * redeployed principal ever sees.
 */
import { DurableObject } from "cloudflare:workers";
import { grantSize } from "../leases/lease-owner";
import type { RateGrant } from "./token-lease";

/** The rate limiter's binding: the template's own /mcp and /tasks limits (http/rate-limit.ts). */
export interface RateLimiterEnv {
  RATE_LIMITER: DurableObjectNamespace<RateLimiterObject>;
}

// It reads nothing of its env: its limits come with each call.
export class RateLimiterObject extends DurableObject<object> {
  private tokens = Number.NaN;
  private updatedAt = 0;

  /**
   * Take up to `want` tokens (at least one, else refuse with the wait for one) from a bucket of
   * `burst` tokens refilled at `perMinute` per minute, after putting back `giveBack` unspent ones.
   */
  async lease(perMinute: number, burst: number, want: number, giveBack = 0): Promise<RateGrant> {
    const now = Date.now();
    const perMs = perMinute / 60_000;
    const refilled = Number.isNaN(this.tokens) ? burst : this.tokens + (now - this.updatedAt) * perMs;
    this.tokens = Math.min(burst, refilled + Math.max(0, Math.floor(giveBack)));
    this.updatedAt = now;
    if (this.tokens >= 1) {
      const granted = Math.max(1, grantSize(want, this.tokens));
      this.tokens -= granted;
      return { ok: true, granted };
    }
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - this.tokens) / perMs / 1000)) };
  }
}
