/**
 * Admission slots held by an isolate: ids of tasks it may create without asking the principal's
 * index first. The index leases a few at a time (src/principals/admission-slots.ts) and counts each
 * against the principal's cap of unfinished tasks from the moment it is leased until its task
 * reports itself, so the cap is never exceeded; here they are spent one per creation, so most
 * creations skip that round trip. The lease itself is the one the rate limiter's tokens use too
 * (src/leases/lease-client.ts): an injected clock, a bounded map, and each creation that finds no slot asking itself.
 */
import { Leases, type LeaseSizing } from "../../leases/lease-client";

/**
 * What the index grants: ids to create tasks under, usable for `ms` from its answer. A length, not a
 * time: the index's clock (its object's Date.now) and this isolate's need not agree, so the client
 * turns it into a time on its own clock when it reads the answer (SlotLeases.take).
 */
export interface SlotGrant {
  ids: string[];
  ms: number;
}

/**
 * One round trip to the index: up to `want` slots, first giving back `giveBack` unspent ones.
 * `waiting`: this isolate's creations whose own round trip for a slot is in flight now, this one
 * included (one, or a burst's many).
 */
export type RequestSlots = (want: number, giveBack: string[], waiting: number) => Promise<SlotGrant>;

/** The most slots one lease asks for; leases start at one and double while they are used up. */
export const MAX_SLOTS_PER_LEASE = 16;
/** A slot is not spent this close to its lease's end: the index may take it back soon after. */
export const SLOT_MARGIN_MS = 1000;

export interface SlotLeaseOptions {
  /** Principals remembered per isolate; the oldest is dropped past it (its slots run out at the index). */
  maxPrincipals: number;
  now?: () => number;
}

/** Leases start at one slot and double while they are used up in time; one run out unspent halves the next. */
const slotLeaseSize: LeaseSizing = (last, ranOutUnspent) =>
  ranOutUnspent ? Math.max(1, Math.floor(last / 2)) : Math.min(MAX_SLOTS_PER_LEASE, Math.max(1, last * 2));

export class SlotLeases {
  private readonly leases: Leases<string, undefined, SlotGrant>;

  /** This isolate's clock: every time the lease holds is on it. */
  private readonly now: () => number;

  constructor(options: SlotLeaseOptions) {
    this.now = options.now ?? Date.now;
    this.leases = new Leases({ maxKeys: options.maxPrincipals, now: this.now });
  }

  /** A slot of `key` to create one task under, or undefined when the index grants none (ask it the exact way). */
  async take(key: string, request: RequestSlots): Promise<string | undefined> {
    const spent = await this.leases.take(key, slotLeaseSize, {
      // Read when the index's answer arrives, by the creation that asked for it (lease-client.ts).
      ask: request,
      grant: ({ ids, ms }) => {
        const [first, ...rest] = ids;
        // No slot granted: near its cap the index admits each creation itself.
        if (first === undefined) return { ok: false, refusal: undefined };
        // On this isolate's clock from the moment the answer is read: later than the index's by the
        // reply's way back, which the margin covers.
        return { ok: true, units: [first, ...rest], until: this.now() + ms - SLOT_MARGIN_MS };
      },
    });
    return spent.ok ? spent.unit : undefined;
  }
}
