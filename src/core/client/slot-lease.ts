/**
 * Admission slots held by an isolate: ids of tasks it may create without asking the principal's
 * index first. The index leases a few at a time (src/principals/admission-slots.ts) and counts each
 * against the principal's cap of unfinished tasks from the moment it is leased until its task
 * reports itself, so the cap is never exceeded; here they are spent one per creation, so most
 * creations skip that round trip. Like the rate limiter's token leases (src/limits/token-lease.ts):
 * an injected clock, a bounded map, concurrent requests sharing one round trip.
 */

/** What the index grants: ids to create tasks under, usable until `until` (the index's clock, ms). */
export interface SlotGrant {
  ids: string[];
  until: number;
}

/**
 * One round trip to the index: up to `want` slots, first giving back `giveBack` unspent ones.
 * `waiting`: this isolate's creations waiting for a slot now (one, or a burst's many).
 */
export type RequestSlots = (want: number, giveBack: string[], waiting: number) => Promise<SlotGrant>;

/** The most slots one lease asks for; leases start at one and double while they are used up. */
export const MAX_SLOTS_PER_LEASE = 16;
/** A slot is not spent this close to its lease's end: the index may take it back soon after. */
export const SLOT_MARGIN_MS = 1000;

interface Held {
  ids: string[];
  until: number;
  /** The next lease's size. */
  want: number;
  /** The round trip in flight, shared by every creation of this isolate that found no slot. */
  pending?: Promise<SlotGrant>;
  /** Creations in take() that found no slot yet. */
  waiting: number;
}

export interface SlotLeaseOptions {
  /** Principals remembered per isolate; the oldest is dropped past it (its slots run out at the index). */
  maxPrincipals: number;
  now?: () => number;
}

export class SlotLeases {
  private readonly held = new Map<string, Held>();
  private readonly now: () => number;

  constructor(private readonly options: SlotLeaseOptions) {
    this.now = options.now ?? Date.now;
  }

  /** A slot of `key` to create one task under, or undefined when the index grants none (ask it the exact way). */
  async take(key: string, request: RequestSlots): Promise<string | undefined> {
    const held = this.entry(key);
    if (this.usable(held) && held.ids.length > 0) return held.ids.shift();
    held.waiting += 1;
    try {
      return await this.wait(held, request);
    } finally {
      held.waiting -= 1;
    }
  }

  private async wait(held: Held, request: RequestSlots): Promise<string | undefined> {
    for (;;) {
      const usable = this.usable(held);
      if (usable && held.ids.length > 0) return held.ids.shift();
      if (held.pending) {
        // A failed round trip is retried by each waiter itself, so the error surfaces in its own request.
        const grant = await held.pending.catch(() => undefined);
        if (grant && grant.ids.length === 0) return undefined;
        continue;
      }
      // Used up in time: the next lease is larger. Run out unused: smaller, and the rest goes back.
      const giveBack = usable ? [] : held.ids.splice(0);
      held.want = giveBack.length > 0 ? Math.max(1, Math.floor(held.want / 2)) : Math.min(MAX_SLOTS_PER_LEASE, held.want * 2);
      const pending = request(held.want, giveBack, held.waiting);
      held.pending = pending;
      let grant: SlotGrant;
      try {
        grant = await pending;
      } finally {
        held.pending = undefined;
      }
      held.ids = [...grant.ids];
      held.until = grant.until;
      if (grant.ids.length === 0) return undefined;
      return held.ids.shift();
    }
  }

  /** Whether the held lease's slots may still be spent. */
  private usable(held: Held): boolean {
    return this.now() < held.until - SLOT_MARGIN_MS;
  }

  private entry(key: string): Held {
    let held = this.held.get(key);
    if (held) {
      this.held.delete(key);
    } else {
      // The first lease asks for one (want doubles from ½ on the first round trip).
      held = { ids: [], until: 0, want: 0.5, waiting: 0 };
      if (this.held.size >= this.options.maxPrincipals) {
        const oldest = this.held.keys().next();
        if (!oldest.done) this.held.delete(oldest.value);
      }
    }
    this.held.set(key, held);
    return held;
  }
}
