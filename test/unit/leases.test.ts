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

  it("has every spend that finds the lease empty ask the owner itself, and later spends use the extras", async ({
    expect,
  }) => {
    const owners = new Owners(1000);
    const spend = use.client(owners, { maxPrincipals: 10, now: clock().now });
    const spent = await Promise.all(Array.from({ length: 10 }, () => spend("p")));
    expect(spent.every(Boolean)).toBe(true);
    // A burst's start costs a round trip per spend: none waits on another's.
    expect(owners.trips()).toHaveLength(10);
    expect(owners.maxInFlight).toBe(10);
    // The first asked for a lease, the others (once one with extras was on its way) only for their own
    // unit: the burst asks for no more than its spends plus one lease's extras.
    const wants = owners.trips().map((trip) => trip.want);
    expect(wants.reduce((sum, want) => sum + want, 0) - 10).toBeLessThanOrEqual(Math.max(...wants) - 1);
    const extras = granted(owners.trips()) - 10;
    for (let i = 0; i < extras; i++) expect(await spend("p")).toBe(true);
    expect(owners.trips()).toHaveLength(10);
  });

  it("answers each spend with the refusal of its own round trip", async ({ expect }) => {
    const owners = new Owners(0);
    const spend = use.client(owners, { maxPrincipals: 10, now: clock().now });
    const spent = await Promise.all(Array.from({ length: 5 }, () => spend("p")));
    expect(spent.some(Boolean)).toBe(false);
    expect(owners.trips()).toHaveLength(5);
  });

  it("fails each spend whose own round trip failed, and asks again on the next", async ({ expect }) => {
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
  /** An owner whose every ask is a promise of the test's own, answered (units, or none) when the test says. */
  function manual() {
    const asks: { want: number; settle: (units: string[]) => void; fail: (error: Error) => void }[] = [];
    const request = {
      ask: (want: number) =>
        new Promise<string[]>((resolve, reject) => asks.push({ want, settle: resolve, fail: reject })),
      grant: ([first, ...rest]: string[]) =>
        first === undefined
          ? { ok: false as const, refusal: "none" }
          : { ok: true as const, units: [first, ...rest] as const, until: 1 },
    };
    return { asks, request, leases: new Leases<string, string, string[]>({ maxKeys: 10, now: () => 0 }) };
  }

  it("has a spend await only its own ask: another's, never answered, does not hold it", async ({ expect }) => {
    // Under workerd a request's I/O may be cancelled when it ends, and a continuation runs in the
    // context of whoever resolved its promise (lease-client.ts): the first spend's ask stands for one
    // whose request went away. The second spend found the lease empty while it was in flight.
    const { asks, request, leases } = manual();
    const first = leases.take("k", () => 3, request);
    const second = leases.take("k", () => 3, request);
    expect(asks).toHaveLength(2);
    asks[1]?.settle(["b-0"]);
    expect(await second).toEqual({ ok: true, unit: "b-0" });
    asks[0]?.fail(new Error("the first request was cancelled"));
    await expect(first).rejects.toThrow("cancelled");
  });

  it("asks for a lease once per burst: spends that come while it is in flight ask for their own unit", async ({
    expect,
  }) => {
    const { asks, request, leases } = manual();
    const spends = Array.from({ length: 4 }, () => leases.take("k", () => 3, request));
    expect(asks.map((ask) => ask.want)).toEqual([3, 1, 1, 1]);
    asks[0]?.settle(["a-0", "a-1", "a-2"]);
    for (const i of [1, 2, 3]) asks[i]?.settle([`b${i}`]);
    expect(await Promise.all(spends)).toEqual(["a-0", "b1", "b2", "b3"].map((unit) => ({ ok: true, unit })));
    // The first lease's extras serve the next spends with no round trip; then a new lease is asked for.
    expect(await leases.take("k", () => 3, request)).toEqual({ ok: true, unit: "a-1" });
    expect(await leases.take("k", () => 3, request)).toEqual({ ok: true, unit: "a-2" });
    expect(asks).toHaveLength(4);
    void leases.take("k", () => 3, request);
    expect(asks.map((ask) => ask.want)).toEqual([3, 1, 1, 1, 3]);
  });

  it("grows the lease while spends keep finding it empty, even with a round trip always in flight", async ({
    expect,
  }) => {
    const { asks, request, leases } = manual();
    const doubling = (last: number) => Math.min(16, Math.max(1, last * 2));
    // Each spend comes while the one before it still waits: only the lease on its way counts.
    const answered = [leases.take("k", doubling, request), leases.take("k", doubling, request)];
    void leases.take("k", doubling, request);
    expect(asks.map((ask) => ask.want)).toEqual([1, 2, 1]);
    asks[0]?.settle(["a-0"]);
    asks[1]?.settle(["b-0", "b-1"]);
    await Promise.all(answered);
    expect(await leases.take("k", doubling, request)).toEqual({ ok: true, unit: "b-1" });
    void leases.take("k", doubling, request);
    expect(asks.at(-1)?.want).toBe(4);
  });

  it("serves a spend the owner refused from units another spend's grant brought meanwhile", async ({ expect }) => {
    const { asks, request, leases } = manual();
    const spends = Array.from({ length: 2 }, () => leases.take("k", () => 3, request));
    asks[0]?.settle(["a-0", "a-1", "a-2"]);
    asks[1]?.settle([]);
    expect(await Promise.all(spends)).toEqual(["a-0", "a-1"].map((unit) => ({ ok: true, unit })));
    expect(await leases.take("k", () => 3, request)).toEqual({ ok: true, unit: "a-2" });
    expect(asks).toHaveLength(2);
  });

  it("spends two grants held together no later than the earlier one's end", async ({ expect }) => {
    let now = 0;
    const leases = new Leases<string, string, { units: string[]; until: number }>({ maxKeys: 10, now: () => now });
    const answers: ((answer: { units: string[]; until: number }) => void)[] = [];
    const request = {
      ask: () => new Promise<{ units: string[]; until: number }>((resolve) => answers.push(resolve)),
      grant: ({ units: [first, ...rest], until }: { units: string[]; until: number }) =>
        first === undefined
          ? { ok: false as const, refusal: "none" }
          : { ok: true as const, units: [first, ...rest] as const, until },
    };
    const spends = Array.from({ length: 2 }, () => leases.take("k", () => 3, request));
    answers[0]?.({ units: ["a-0", "a-1"], until: 100 });
    answers[1]?.({ units: ["b-0", "b-1"], until: 50 });
    await Promise.all(spends);
    now = 50;
    const gaveBack: string[][] = [];
    const giving = {
      ...request,
      ask: (_want: number, giveBack: string[]) => {
        gaveBack.push(giveBack);
        return request.ask();
      },
    };
    void leases.take("k", () => 3, giving);
    expect(gaveBack).toEqual([["a-1", "b-1"]]);
  });
});
