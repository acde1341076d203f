// The lease's contract (src/leases/lease-client.ts), one suite run against both of its uses: an
// isolate's admission slots (src/core/slot-lease.ts) and its rate-limit tokens
// (src/limits/token-lease.ts). What only one use does (how leases are sized, what a refusal says)
// is tested beside it: slot-lease.test.ts, token-lease.test.ts.
import { Leases } from "../../src/leases/lease-client";
import { describe, it } from "vitest";
import { SLOT_MARGIN_MS, SlotLeases, type SlotGrant } from "../../src/core/client/slot-lease";
import { TokenLeases, type RateGrant } from "../../src/limits/token-lease";

const LEASE_MS = 10_000;

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

interface Trip {
  want: number;
  giveBack: number;
  granted: number;
}

/**
 * Owners of `stock` units per key, standing in for the PrincipalObject or the RateLimiterObject:
 * they grant what they have, take back what comes back, and record every round trip.
 */
class Owners {
  failing = false;
  inFlight = 0;
  maxInFlight = 0;
  private readonly stocks = new Map<string, number>();
  private readonly tripsByKey = new Map<string, Trip[]>();

  constructor(private readonly stock: number) {}

  trips(key = "p"): Trip[] {
    return this.tripsByKey.get(key) ?? [];
  }

  async trip(key: string, want: number, giveBack: number): Promise<number> {
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      await Promise.resolve();
      if (this.failing) throw new Error("owner unreachable");
      const stock = (this.stocks.get(key) ?? this.stock) + giveBack;
      const granted = Math.min(Math.floor(want), stock);
      this.stocks.set(key, stock - granted);
      this.tripsByKey.set(key, [...this.trips(key), { want, giveBack, granted }]);
      return granted;
    } finally {
      this.inFlight -= 1;
    }
  }
}

/** One use of the lease: a client over `owners`, spending one unit of `key` per call (true if granted). */
interface Use {
  name: string;
  /** How long after its grant a lease is run out. */
  staleAfterMs: number;
  client(owners: Owners, options: { maxPrincipals: number; now: () => number }): (key: string) => Promise<boolean>;
}

const uses: Use[] = [
  {
    name: "admission slots (SlotLeases)",
    staleAfterMs: LEASE_MS - SLOT_MARGIN_MS,
    client(owners, options) {
      const leases = new SlotLeases(options);
      let next = 0;
      return async (key) => {
        const slot = await leases.take(key, async (want, giveBack): Promise<SlotGrant> => {
          const granted = await owners.trip(key, want, giveBack.length);
          return { ids: Array.from({ length: granted }, () => `slot-${next++}`), ms: LEASE_MS };
        });
        return slot !== undefined;
      };
    },
  },
  {
    name: "rate-limit tokens (TokenLeases)",
    staleAfterMs: LEASE_MS,
    client(owners, options) {
      const leases = new TokenLeases({ leaseMs: LEASE_MS, ...options });
      return async (key) => {
        const verdict = await leases.spend(key, 10, async (want, giveBack): Promise<RateGrant> => {
          const granted = await owners.trip(key, want, giveBack);
          return granted > 0 ? { ok: true, granted } : { ok: false, retryAfterSeconds: 7 };
        });
        return verdict.ok;
      };
    },
  },
];

const granted = (trips: Trip[]) => trips.reduce((sum, trip) => sum + trip.granted - trip.giveBack, 0);

describe.each(uses)("the lease, for $name", (use) => {
  it("spends each lease's units in the isolate: every spend granted, with fewer round trips than spends", async ({
    expect,
  }) => {
    const owners = new Owners(1000);
    const spend = use.client(owners, { maxPrincipals: 10, now: clock().now });
    const spent = [];
    for (let i = 0; i < 40; i++) spent.push(await spend("p"));
    expect(spent.every(Boolean)).toBe(true);
    expect(owners.trips().length).toBeLessThan(10);
  });

  it("never lets two isolates together spend more than the owner holds", async ({ expect }) => {
    const owners = new Owners(30);
    const time = clock();
    const a = use.client(owners, { maxPrincipals: 10, now: time.now });
    const b = use.client(owners, { maxPrincipals: 10, now: time.now });
    let allowed = 0;
    for (let i = 0; i < 60; i++) if (await (i % 3 === 0 ? a : b)("p")) allowed += 1;
    expect(allowed).toBeLessThanOrEqual(30);
    expect(allowed).toBeLessThanOrEqual(granted(owners.trips()));
  });

  it("keeps one round trip in flight per key: concurrent spends that find the lease empty wait for it", async ({
    expect,
  }) => {
    const owners = new Owners(1000);
    const spend = use.client(owners, { maxPrincipals: 10, now: clock().now });
    const spent = await Promise.all(Array.from({ length: 10 }, () => spend("p")));
    expect(spent.every(Boolean)).toBe(true);
    expect(owners.maxInFlight).toBe(1);
  });

  it("answers every spend that waited on a round trip with its refusal", async ({ expect }) => {
    const owners = new Owners(0);
    const spend = use.client(owners, { maxPrincipals: 10, now: clock().now });
    const spent = await Promise.all(Array.from({ length: 5 }, () => spend("p")));
    expect(spent.some(Boolean)).toBe(false);
    expect(owners.trips()).toHaveLength(1);
  });

  it("fails every spend waiting on a failed round trip, and asks again on the next", async ({ expect }) => {
    const owners = new Owners(10);
    const spend = use.client(owners, { maxPrincipals: 10, now: clock().now });
    owners.failing = true;
    const results = await Promise.allSettled(Array.from({ length: 3 }, () => spend("p")));
    expect(results.every((result) => result.status === "rejected")).toBe(true);
    owners.failing = false;
    expect(await spend("p")).toBe(true);
  });

  it("gives a run-out lease's unspent units back with the next round trip", async ({ expect }) => {
    const owners = new Owners(1000);
    const time = clock();
    const spend = use.client(owners, { maxPrincipals: 10, now: time.now });
    let spent = 0;
    // Spend until the lease in hand holds units that are not spent yet.
    while (granted(owners.trips()) === spent) {
      await spend("p");
      spent += 1;
    }
    const unspent = granted(owners.trips()) - spent;
    time.advance(use.staleAfterMs);
    await spend("p");
    expect(owners.trips().at(-1)?.giveBack).toBe(unspent);
  });

  it("keeps keys apart, and forgets the least recent past maxPrincipals", async ({ expect }) => {
    const owners = new Owners(100);
    const spend = use.client(owners, { maxPrincipals: 1, now: clock().now });
    expect(await spend("a")).toBe(true);
    expect(await spend("b")).toBe(true);
    expect(owners.trips("b")).toHaveLength(1);
    // "a" was forgotten when "b" came: its next spend needs a round trip of its own.
    await spend("a");
    expect(owners.trips("a")).toHaveLength(2);
  });
});

describe("Leases (the shared client)", () => {
  it("hands every spend waiting on a round trip the owner's own answer, which each reads itself", async ({
    expect,
  }) => {
    // Under workerd a waiter must await the owner's RPC promise, not one resolved by another
    // request's code (lease-client.ts); here: one ask, and the answer read once per spend.
    const leases = new Leases<string, string, string>({ maxKeys: 10, now: () => 0 });
    let answer: (value: string) => void = () => {};
    const asked = new Promise<string>((resolve) => (answer = resolve));
    let asks = 0;
    const read: string[] = [];
    const request = {
      ask: () => {
        asks += 1;
        return asked;
      },
      grant: (value: string) => {
        read.push(value);
        return { ok: false as const, refusal: value };
      },
    };
    const spends = Array.from({ length: 4 }, () => leases.take("k", () => 1, request));
    answer("full");
    expect(await Promise.all(spends)).toEqual(Array.from({ length: 4 }, () => ({ ok: false, refusal: "full" })));
    expect(asks).toBe(1);
    expect(read).toEqual(["full", "full", "full", "full"]);
  });
});
