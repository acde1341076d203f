// What only the token use of the lease does; the lease's contract, run against both of its uses, is leases.test.ts.
import { describe, it } from "vitest";
import { leaseSize, TokenLeases, type RateGrant } from "../../src/limits/token-lease";

/** A bucket without refill, standing in for the RateLimiterObject: counts round trips and what comes back. */
function bucket(tokens: number) {
  const state = { tokens, trips: 0, returned: 0 };
  const refill = async (want: number, giveBack: number): Promise<RateGrant> => {
    state.trips += 1;
    state.returned += giveBack;
    state.tokens += giveBack;
    if (state.tokens < 1) return { ok: false, retryAfterSeconds: 7 };
    const granted = Math.min(want, state.tokens);
    state.tokens -= granted;
    return { ok: true, granted };
  };
  return { state, refill };
}

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

async function spendMany(
  leases: TokenLeases,
  count: number,
  size: number,
  refill: ReturnType<typeof bucket>["refill"],
) {
  const verdicts = [];
  for (let i = 0; i < count; i++) verdicts.push(await leases.spend("p", size, refill));
  return verdicts;
}

describe("TokenLeases", () => {
  it("serves a lease's tokens locally: one round trip per `size` requests", async ({ expect }) => {
    const { state, refill } = bucket(100);
    const leases = new TokenLeases({ leaseMs: 1000, maxPrincipals: 10, now: clock().now });
    const verdicts = await spendMany(leases, 25, 10, refill);
    expect(verdicts.every((v) => v.ok)).toBe(true);
    expect(state.trips).toBe(3);
  });

  it("never lets two isolates together spend more tokens than the bucket held", async ({ expect }) => {
    const { refill } = bucket(30);
    const time = clock();
    const a = new TokenLeases({ leaseMs: 1000, maxPrincipals: 10, now: time.now });
    const b = new TokenLeases({ leaseMs: 1000, maxPrincipals: 10, now: time.now });
    let allowed = 0;
    for (let i = 0; i < 40; i++) {
      if ((await (i % 3 === 0 ? a : b).spend("p", 4, refill)).ok) allowed += 1;
    }
    expect(allowed).toBeLessThanOrEqual(30);
    // The tokens one isolate holds are not lost: they are spent by its later requests.
    expect(allowed).toBeGreaterThanOrEqual(30 - 4);
  });

  it("refuses with the bucket's Retry-After once the bucket and the lease are empty", async ({ expect }) => {
    const { refill } = bucket(3);
    const leases = new TokenLeases({ leaseMs: 1000, maxPrincipals: 10, now: clock().now });
    const verdicts = await spendMany(leases, 4, 2, refill);
    expect(verdicts.slice(0, 3).every((v) => v.ok)).toBe(true);
    expect(verdicts[3]).toEqual({ ok: false, retryAfterSeconds: 7 });
  });

  it("has each request of a burst that finds the lease empty ask itself; the first lease's extras serve the next", async ({
    expect,
  }) => {
    const { state, refill } = bucket(100);
    const leases = new TokenLeases({ leaseMs: 1000, maxPrincipals: 10, now: clock().now });
    const verdicts = await Promise.all(Array.from({ length: 8 }, () => leases.spend("p", 10, refill)));
    expect(verdicts.every((v) => v.ok)).toBe(true);
    // 8 round trips, the first for a lease of 10 and the others for one token each: 17 taken.
    expect(state.trips).toBe(8);
    expect(state.tokens).toBe(100 - 17);
    await spendMany(leases, 9, 10, refill);
    expect(state.trips).toBe(8);
  });

  it("lets a burst through no further than the bucket holds, and refuses the rest", async ({ expect }) => {
    const { state, refill } = bucket(50);
    const leases = new TokenLeases({ leaseMs: 1000, maxPrincipals: 10, now: clock().now });
    const verdicts = await Promise.all(Array.from({ length: 200 }, () => leases.spend("p", 10, refill)));
    expect(verdicts.filter((v) => v.ok)).toHaveLength(50);
    expect(verdicts.filter((v) => !v.ok).every((v) => !v.ok && v.retryAfterSeconds === 7)).toBe(true);
    expect(state.tokens).toBe(0);
  });

  it("sizes a lease at 5% of the burst, between 1 and 20 tokens", ({ expect }) => {
    expect([leaseSize(1), leaseSize(30), leaseSize(200), leaseSize(1000), leaseSize(1_000_000)]).toEqual([
      1, 1, 10, 20, 20,
    ]);
  });
});
