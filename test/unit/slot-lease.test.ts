// What only the admission-slot use of the lease does; the lease's contract, run against both of its uses, is leases.test.ts.
import { describe, it } from "vitest";
import { MAX_SLOTS_PER_LEASE, SLOT_MARGIN_MS, SlotLeases, type SlotGrant } from "../../src/core/client/slot-lease";
import { slotAllowance } from "../../src/principals/admission-slots";

const LEASE_MS = 10_000;

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

/** An index standing in for the PrincipalObject: `room` slots left under the cap, every round trip recorded. */
function index(room: number, now: () => number) {
  let next = 0;
  const state = { room, trips: [] as { want: number; giveBack: string[] }[], outstanding: new Set<string>() };
  const request = async (want: number, giveBack: string[]): Promise<SlotGrant> => {
    state.trips.push({ want, giveBack });
    for (const id of giveBack) if (state.outstanding.delete(id)) state.room += 1;
    const ids = Array.from({ length: Math.min(want, state.room) }, () => `slot-${next++}`);
    for (const id of ids) state.outstanding.add(id);
    state.room -= ids.length;
    return { ids, ms: LEASE_MS };
  };
  return { state, request };
}

describe("SlotLeases", () => {
  it("spends a lease's slots locally, asking for twice as many each time a lease is used up, at most MAX_SLOTS_PER_LEASE", async ({
    expect,
  }) => {
    const time = clock();
    const { state, request } = index(1000, time.now);
    const leases = new SlotLeases({ maxPrincipals: 10, now: time.now });
    const taken: (string | undefined)[] = [];
    for (let i = 0; i < 63; i++) taken.push(await leases.take("p", request));
    expect(new Set(taken).size).toBe(63);
    expect(state.trips.map((t) => t.want)).toEqual([1, 2, 4, 8, 16, 16, 16]);
    expect(Math.max(...state.trips.map((t) => t.want))).toBe(MAX_SLOTS_PER_LEASE);
  });

  it("holds a grant for its length on this isolate's clock, whatever the index's clock says", async ({ expect }) => {
    // The index's object runs elsewhere: its Date.now may be an hour off this isolate's. Only the
    // length it grants is read, from the moment its answer arrives here.
    const time = clock();
    const { state, request } = index(1000, () => time.now() - 3_600_000);
    const leases = new SlotLeases({ maxPrincipals: 10, now: time.now });
    await leases.take("p", request);
    await leases.take("p", request); // a lease of 2: one spent now, one left
    time.advance(LEASE_MS - SLOT_MARGIN_MS - 1);
    await leases.take("p", request);
    expect(state.trips).toHaveLength(2);
    time.advance(1);
    await leases.take("p", request);
    expect(state.trips).toHaveLength(3);
  });

  it("has each creation of a burst that finds no slot ask itself, the first for the lease and the rest for one", async ({
    expect,
  }) => {
    const time = clock();
    const { state, request } = index(1000, time.now);
    const leases = new SlotLeases({ maxPrincipals: 10, now: time.now });
    await leases.take("p", request);
    await leases.take("p", request); // the second lease asks for 2
    await leases.take("p", request);
    const taken = await Promise.all(Array.from({ length: 4 }, () => leases.take("p", request)));
    expect(new Set(taken).size).toBe(4);
    expect(state.trips.map((t) => t.want)).toEqual([1, 2, 4, 1, 1, 1]);
    // The lease of 4 brought 3 slots beyond its creation's: the next 3 creations make no round trip.
    for (let i = 0; i < 3; i++) await leases.take("p", request);
    expect(state.trips).toHaveLength(6);
  });

  it("tells the index how many creations wait for a slot: one in sequence, a burst's many at once", async ({
    expect,
  }) => {
    const time = clock();
    const waited: number[] = [];
    const { request } = index(1000, time.now);
    const leases = new SlotLeases({ maxPrincipals: 10, now: time.now });
    const counting = (want: number, giveBack: string[], waiting: number) => {
      waited.push(waiting);
      return request(want, giveBack);
    };
    await leases.take("p", counting);
    await leases.take("p", counting);
    expect(waited).toEqual([1, 1]);
    // Ten at once: the first spends the slot left over, the next asks alone for a lease, and each
    // after it asks for its own slot, counting the creations already waiting.
    await Promise.all(Array.from({ length: 10 }, () => leases.take("p", counting)));
    expect(waited.slice(2)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it("spends no slot near its lease's end: the rest go back with the next lease, which is smaller", async ({
    expect,
  }) => {
    const time = clock();
    const { state, request } = index(1000, time.now);
    const leases = new SlotLeases({ maxPrincipals: 10, now: time.now });
    const taken: (string | undefined)[] = [];
    for (let i = 0; i < 4; i++) taken.push(await leases.take("p", request)); // leases of 1, 2, then 4 (one of them spent)
    time.advance(LEASE_MS - SLOT_MARGIN_MS);
    taken.push(await leases.take("p", request));
    const last = state.trips.at(-1);
    expect(state.trips.at(-2)?.want).toBe(4);
    expect(last?.want).toBe(2);
    expect(last?.giveBack).toHaveLength(3);
    // What went back was never handed out here, and what was handed out never went back.
    for (const id of last?.giveBack ?? []) expect(taken).not.toContain(id);
  });

  it("answers undefined when the index grants nothing, so the caller asks it the exact way", async ({ expect }) => {
    const time = clock();
    const { request } = index(1, time.now);
    const leases = new SlotLeases({ maxPrincipals: 10, now: time.now });
    expect(await leases.take("p", request)).toBe("slot-0");
    expect(await leases.take("p", request)).toBeUndefined();
  });

  it("keeps each principal's slots apart, and forgets the oldest principal past maxPrincipals", async ({ expect }) => {
    const time = clock();
    const a = index(100, time.now);
    const b = index(100, time.now);
    const leases = new SlotLeases({ maxPrincipals: 1, now: time.now });
    expect(await leases.take("a", a.request)).toBe("slot-0");
    expect(await leases.take("b", b.request)).toBe("slot-0");
    // "a" was forgotten: its next creation starts a lease of one again.
    await leases.take("a", a.request);
    expect(a.state.trips.map((t) => t.want)).toEqual([1, 1]);
  });
});

describe("slotAllowance", () => {
  it("leases at most a quarter of the room left under the cap, and nothing near it", ({ expect }) => {
    expect(slotAllowance(16, 0, 200)).toBe(16);
    expect(slotAllowance(16, 180, 200)).toBe(5);
    expect(slotAllowance(16, 197, 200)).toBe(0);
    expect(slotAllowance(16, 0, 3)).toBe(0);
    expect(slotAllowance(4, 250, 200)).toBe(0);
  });
});
