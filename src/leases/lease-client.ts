/**
 * Leases held by an isolate: units taken from an owner object a few at a time and spent here, so
 * most spends skip the round trip to it. Units leave the owner before they are spent, so its limit
 * holds; a lease only moves them into one isolate for a while. Two uses: the rate limiter's tokens
 * (src/limits/token-lease.ts) and the admission slots of the principals' indexes
 * (src/core/client/slot-lease.ts). An injected clock, a bounded map of keys, and per key one round trip
 * in flight, shared by every spend that found the lease empty.
 */

/**
 * What one round trip brings: units to spend before `until`, or a refusal for every spend waiting on
 * it. `until` is on this isolate's clock (the `now` of LeaseOptions), never the owner's: a grant
 * carries a length that the caller adds to its own `now()` (slot-lease.ts, token-lease.ts).
 */
export type LeaseGrant<Unit, Refusal> =
  | { ok: true; units: readonly [Unit, ...Unit[]]; until: number }
  | { ok: false; refusal: Refusal };

/**
 * One round trip to the owner: its own answer (an RPC promise), shared as it is by every spend
 * waiting on it, and `grant` to read it. Every spend reads the answer itself: a waiter that awaited
 * a promise of this isolate's making, resolved by another request's code, went on in that request's
 * I/O context, and the runtime then refused its response ("Cannot perform I/O on behalf of a
 * different request", seen under `npm run bench -- peers`; docs/peers.md).
 */
export interface LeaseRequest<Unit, Refusal, Answer> {
  ask(want: number, giveBack: Unit[], waiting: number): Promise<Answer>;
  grant(answer: Answer): LeaseGrant<Unit, Refusal>;
}

/** The next lease's size, from the last one's (0 before the first) and whether that one ran out with units unspent. */
export type LeaseSizing = (last: number, ranOutUnspent: boolean) => number;

export type Spent<Unit, Refusal> = { ok: true; unit: Unit } | { ok: false; refusal: Refusal };

export interface LeaseOptions {
  /** Keys remembered per isolate; the least recent is dropped past it (its units run out at the owner). */
  maxKeys: number;
  /** This isolate's clock (Date.now by default; a test's own): every lease time here is on it. */
  now?: () => number;
}

interface Held<Unit, Answer> {
  units: Unit[];
  /** Until when `units` may be spent, on this isolate's clock. */
  until: number;
  /** The last lease's size. */
  want: number;
  /** The owner's answer in flight, shared by every spend of this isolate that found no unit. */
  pending?: Promise<Answer>;
  /** Spends in take() that found no unit yet. */
  waiting: number;
}

/** An isolate's leases, by key. `Unit` is what is leased (a slot's id, a token's mark), never undefined. */
export class Leases<Unit, Refusal, Answer> {
  private readonly held = new Map<string, Held<Unit, Answer>>();
  private readonly now: () => number;

  constructor(private readonly options: LeaseOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Spend one unit of `key`'s lease, asking the owner (`request`) for a new lease when it has none left. */
  async take(
    key: string,
    sizing: LeaseSizing,
    request: LeaseRequest<Unit, Refusal, Answer>,
  ): Promise<Spent<Unit, Refusal>> {
    const held = this.entry(key);
    const spent = this.spend(held);
    if (spent) return spent;
    held.waiting += 1;
    try {
      return await this.wait(held, sizing, request);
    } finally {
      held.waiting -= 1;
    }
  }

  private async wait(
    held: Held<Unit, Answer>,
    sizing: LeaseSizing,
    request: LeaseRequest<Unit, Refusal, Answer>,
  ): Promise<Spent<Unit, Refusal>> {
    for (;;) {
      const spent = this.spend(held);
      if (spent) return spent;
      if (held.pending) {
        // A refusal answers every spend that waited on it; after a failed round trip each waiter
        // tries again itself, so the error surfaces in its own request.
        const answer = await held.pending.then(
          (value) => ({ value }),
          () => undefined,
        );
        const grant = answer && request.grant(answer.value);
        if (grant && !grant.ok) return grant;
        continue;
      }
      // A lease run out gives its unspent units back; one used up in time gives nothing back.
      const giveBack = this.usable(held) ? [] : held.units.splice(0);
      held.want = sizing(held.want, giveBack.length > 0);
      const pending = request.ask(held.want, giveBack, held.waiting);
      held.pending = pending;
      let answer: Answer;
      try {
        answer = await pending;
      } finally {
        held.pending = undefined;
      }
      const grant = request.grant(answer);
      if (!grant.ok) return grant;
      // This spend takes the first unit; the rest serve the next ones.
      held.units = grant.units.slice(1);
      held.until = grant.until;
      return { ok: true, unit: grant.units[0] };
    }
  }

  /** A unit of the held lease, if it has one and may still be spent. */
  private spend(held: Held<Unit, Answer>): Spent<Unit, Refusal> | undefined {
    if (!this.usable(held)) return undefined;
    const unit = held.units.shift();
    return unit === undefined ? undefined : { ok: true, unit };
  }

  private usable(held: Held<Unit, Answer>): boolean {
    return this.now() < held.until;
  }

  private entry(key: string): Held<Unit, Answer> {
    let held = this.held.get(key);
    if (held) {
      // Map order is insertion order: re-inserting keeps the busiest keys last.
      this.held.delete(key);
    } else {
      held = { units: [], until: 0, want: 0, waiting: 0 };
      if (this.held.size >= this.options.maxKeys) {
        const oldest = this.held.keys().next();
        if (!oldest.done) this.held.delete(oldest.value);
      }
    }
    this.held.set(key, held);
    return held;
  }
}
