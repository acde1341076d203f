/**
 * Leases held by an isolate: units taken from an owner object a few at a time and spent here, so
 * most spends skip the round trip to it. Units leave the owner before they are spent, so its limit
 * holds; a lease only moves them into one isolate for a while. Two uses: the rate limiter's tokens
 * (src/limits/token-lease.ts) and the admission slots of the principals' indexes
 * (src/core/client/slot-lease.ts). An injected clock, a bounded map of keys, and no shared round trip:
 * a spend that finds no unit asks the owner itself and awaits only that ask (see Leases.take).
 */

/**
 * What one round trip brings: units to spend before `until`, or a refusal for the spend that asked.
 * `until` is on this isolate's clock (the `now` of LeaseOptions), never the owner's: a grant
 * carries a length that the caller adds to its own `now()` (slot-lease.ts, token-lease.ts).
 */
export type LeaseGrant<Unit, Refusal> =
  | { ok: true; units: readonly [Unit, ...Unit[]]; until: number }
  | { ok: false; refusal: Refusal };

/**
 * One round trip to the owner, made by the spend that needs it: `ask` for the owner's answer (its
 * RPC promise), and `grant` to read it once it has arrived, on this isolate's clock.
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

interface Held<Unit> {
  units: Unit[];
  /** Until when `units` may be spent, on this isolate's clock. */
  until: number;
  /** Units of a lease that ran out here unspent, given back with the next ask. */
  stale: Unit[];
  /** The last lease's size. */
  want: number;
  /** Spends of this isolate whose own ask is in flight. */
  waiting: number;
  /** Units the asks in flight asked for beyond their own spend's: what they will bring for later spends. */
  coming: number;
}

/**
 * An isolate's leases, by key. `Unit` is what is leased (a slot's id, a token's mark), never undefined.
 *
 * No spend awaits a promise another spend created. On Workers a continuation runs in the I/O context
 * of the request whose code resolved the promise, and the runtime may cancel a request's I/O when it
 * ends or is cancelled: a spend waiting on another's round trip would hang, or go on in that request's
 * context and have its response refused ("Cannot perform I/O on behalf of a different request", the
 * 500 of docs/peers.md). So the isolate shares data (`units`), never a promise: a spend that finds no
 * unit asks the owner itself, and a grant's extra units go to `units` for the spends after it. The
 * cost is at a burst's start, while the first ask is in flight: each spend then makes a round trip
 * of its own (asking for its one unit, so the burst does not sweep the owner into this isolate).
 */
export class Leases<Unit, Refusal, Answer> {
  private readonly held = new Map<string, Held<Unit>>();
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
    // A lease run out gives its unspent units back; one used up in time gives nothing back.
    if (!this.usable(held)) held.stale.push(...held.units.splice(0));
    const giveBack = held.stale.splice(0);
    // A spend that finds no unit and none on the way sizes the next lease (so it still grows under a
    // steady load); those that come while its ask is in flight ask for their own unit and whatever
    // the lease under way lacks (usually nothing).
    if (held.coming === 0) held.want = sizing(held.want, giveBack.length > 0);
    const extra = Math.max(0, held.want - 1 - held.coming);
    held.waiting += 1;
    held.coming += extra;
    try {
      const grant = request.grant(await request.ask(1 + extra, giveBack, held.waiting));
      // Refused: another spend's grant may have landed meanwhile, with a unit to spare.
      if (!grant.ok) return this.spend(held) ?? grant;
      const [unit, ...rest] = grant.units;
      this.keep(held, rest, grant.until);
      return { ok: true, unit };
    } finally {
      held.waiting -= 1;
      held.coming -= extra;
    }
  }

  /** Adds a grant's extra units to the held lease, for the spends after this one. */
  private keep(held: Held<Unit>, units: Unit[], until: number): void {
    if (units.length === 0) return;
    if (!this.usable(held)) held.stale.push(...held.units.splice(0));
    if (held.units.length === 0) {
      held.units = units;
      held.until = until;
      return;
    }
    // Two grants held together end at the earlier's end, so no unit is spent past its own lease.
    held.units.push(...units);
    held.until = Math.min(held.until, until);
  }

  /** A unit of the held lease, if it has one and may still be spent. */
  private spend(held: Held<Unit>): Spent<Unit, Refusal> | undefined {
    if (!this.usable(held)) return undefined;
    const unit = held.units.shift();
    return unit === undefined ? undefined : { ok: true, unit };
  }

  private usable(held: Held<Unit>): boolean {
    return this.now() < held.until;
  }

  private entry(key: string): Held<Unit> {
    let held = this.held.get(key);
    if (held) {
      // Map order is insertion order: re-inserting keeps the busiest keys last.
      this.held.delete(key);
    } else {
      held = { units: [], until: 0, stale: [], want: 0, waiting: 0, coming: 0 };
      if (this.held.size >= this.options.maxKeys) {
        const oldest = this.held.keys().next();
        if (!oldest.done) this.held.delete(oldest.value);
      }
    }
    this.held.set(key, held);
    return held;
  }
}
