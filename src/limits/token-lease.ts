/**
 * In-isolate leases on the principals' token buckets: an isolate takes a few tokens from a
 * principal's RateLimiterObject at once and spends them locally, so most requests skip that
 * round trip. Tokens leave the bucket before they are spent, so the limit is never exceeded;
 * a lease only moves tokens from the shared bucket into one isolate for a short while. The lease
 * itself is the one admission slots use too (src/leases/lease-client.ts).
 */
import { Leases } from "../leases/lease-client";

export type RateGrant = { ok: true; granted: number } | { ok: false; retryAfterSeconds: number };
export type RateVerdict = { ok: true } | { ok: false; retryAfterSeconds: number };

/** One round trip to the bucket: take up to `want` tokens (at least one, else refuse), first putting back `giveBack` unspent ones. */
export type RefillLease = (want: number, giveBack: number) => Promise<RateGrant>;

export interface TokenLeaseOptions {
  /** Unspent tokens older than this go back to the bucket with the next refill, so an idle isolate does not sit on them. */
  leaseMs: number;
  /** Principals remembered per isolate; the oldest lease is dropped past it (its tokens are simply lost, which only errs on the safe side). */
  maxPrincipals: number;
  now?: () => number;
}

/** Tokens taken per round trip: 5% of the burst, at most 20, so a lease never holds back much of a principal's burst. */
export const leaseSize = (burst: number): number => Math.max(1, Math.min(20, Math.floor(burst / 20)));

/** A token has no identity: a lease holds as many of this mark as it has tokens. */
type Token = true;
const TOKEN: Token = true;
type Refusal = Extract<RateGrant, { ok: false }>;

export class TokenLeases {
  private readonly leases: Leases<Token, Refusal, RateGrant>;
  private readonly now: () => number;

  constructor(private readonly options: TokenLeaseOptions) {
    this.now = options.now ?? Date.now;
    this.leases = new Leases({ maxKeys: options.maxPrincipals, now: this.now });
  }

  /** Spend one token of `key`'s bucket, refilling the local lease with `size` tokens when it is empty. */
  async spend(key: string, size: number, refill: RefillLease): Promise<RateVerdict> {
    const spent = await this.leases.take(key, () => size, {
      // Read when the bucket's answer arrives, by the request that asked for it (lease-client.ts).
      ask: (want, giveBack) => refill(want, giveBack.length),
      grant: (grant) => {
        if (!grant.ok) return { ok: false, refusal: grant };
        // Fresh for leaseMs from now, on this isolate's clock (the bucket's is never read here);
        // the bucket grants at least one token with every ok.
        const units: [Token, ...Token[]] = [TOKEN, ...Array.from({ length: grant.granted - 1 }, (): Token => TOKEN)];
        return { ok: true, units, until: this.now() + this.options.leaseMs };
      },
    });
    return spent.ok ? { ok: true } : spent.refusal;
  }
}
