/**
 * In-isolate leases on the principals' token buckets: an isolate takes a few tokens from a
 * principal's RateLimiterObject at once and spends them locally, so most requests skip that
 * round trip. Tokens leave the bucket before they are spent, so the limit is never exceeded;
 * a lease only moves tokens from the shared bucket into one isolate for a short while.
 */

export type RateGrant = { ok: true; granted: number } | { ok: false; retryAfterSeconds: number };
export type RateVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

/** One round trip to the bucket: take up to `want` tokens (at least one, else refuse), first putting back `giveBack` unspent ones. */
export type RefillLease = (want: number, giveBack: number) => Promise<RateGrant>;

interface Lease {
  tokens: number;
  takenAt: number;
  /** The round trip in flight, shared by every request of this isolate that found the lease empty. */
  pending?: Promise<RateGrant>;
}

export interface TokenLeaseOptions {
  /** Unspent tokens older than this go back to the bucket with the next refill, so an idle isolate does not sit on them. */
  leaseMs: number;
  /** Principals remembered per isolate; the oldest lease is dropped past it (its tokens are simply lost, which only errs on the safe side). */
  maxPrincipals: number;
  now?: () => number;
}

/** Tokens taken per round trip: 5% of the burst, at most 20, so a lease never holds back much of a principal's burst. */
export const leaseSize = (burst: number): number => Math.max(1, Math.min(20, Math.floor(burst / 20)));

export class TokenLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly now: () => number;

  constructor(private readonly options: TokenLeaseOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Spend one token of `key`'s bucket, refilling the local lease with `size` tokens when it is empty. */
  async spend(key: string, size: number, refill: RefillLease): Promise<RateVerdict> {
    for (;;) {
      const lease = this.lease(key);
      const now = this.now();
      const fresh = now - lease.takenAt < this.options.leaseMs;
      if (fresh && lease.tokens >= 1) {
        lease.tokens -= 1;
        return { ok: true };
      }
      if (lease.pending) {
        // A refusal answers every request that waited on it; after a failed round trip each
        // waiter tries again itself, so the error surfaces in its own request.
        const grant = await lease.pending.catch(() => undefined);
        if (grant && !grant.ok) return grant;
        continue;
      }
      const giveBack = fresh ? 0 : Math.floor(lease.tokens);
      lease.tokens -= giveBack;
      const pending = refill(size, giveBack);
      lease.pending = pending;
      let grant: RateGrant;
      try {
        grant = await pending;
      } finally {
        lease.pending = undefined;
      }
      if (!grant.ok) return grant;
      // This request spends one of the granted tokens; the rest serve the next requests.
      lease.tokens = grant.granted - 1;
      lease.takenAt = this.now();
      return { ok: true };
    }
  }

  private lease(key: string): Lease {
    let lease = this.leases.get(key);
    if (lease) {
      // Map order is insertion order: re-inserting keeps the busiest principals last.
      this.leases.delete(key);
    } else {
      lease = { tokens: 0, takenAt: 0 };
      if (this.leases.size >= this.options.maxPrincipals) {
        const oldest = this.leases.keys().next();
        if (!oldest.done) this.leases.delete(oldest.value);
      }
    }
    this.leases.set(key, lease);
    return lease;
  }
}
