// The pool's refill against a principal's real index and real TaskObjects, on a clock the test
// moves by hand: what happens at which moment is decided here, not by how busy the machine is.
import { describe, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { principalObjectName } from "../../src/core/model/ids";
import { AdmissionSlots } from "../../src/principals/admission-slots";
import type { PrincipalObject } from "../../src/principals/principal-object";
import { Provisioning, type RefillClock } from "../../src/principals/provisioning";
import { MAX_BATCH, POOL_MAX } from "../../src/principals/refill-plan";
import {
  POOL_MAX_AGE_MS,
  POOL_SIZE,
  REFILL_DELAY_MS,
  SURPLUS_MAX_AGE_MS,
  TaskIdPool,
} from "../../src/principals/task-id-pool";
import { until } from "../until";

/** A clock that moves only when told to, running the timers that fall due. */
class HandClock implements RefillClock {
  private at = Date.now();
  private timers: { due: number; run: () => void }[] = [];

  now(): number {
    return this.at;
  }

  setTimeout(run: () => void, ms: number): void {
    this.timers.push({ due: this.at + ms, run });
  }

  /** Timers set and not yet run. */
  pending(): number {
    return this.timers.length;
  }

  /** Moves `ms` on; says how many timers fell due and ran. */
  advance(ms: number): number {
    this.at += ms;
    const due = this.timers.filter((timer) => timer.due <= this.at);
    this.timers = this.timers.filter((timer) => timer.due > this.at);
    for (const timer of due) timer.run();
    return due.length;
  }
}

interface Refilling {
  principal: string;
  clock: HandClock;
  pool: TaskIdPool;
  provisioning: Provisioning;
}

/** Runs `test` inside a new principal's real index, with its pool and a Provisioning on a hand-moved clock. */
async function inPrincipalIndex(test: (refilling: Refilling) => Promise<void>): Promise<void> {
  const principal = `p-${crypto.randomUUID()}`;
  const index = env.PRINCIPALS.getByName(principalObjectName(principal));
  await runInDurableObject(index, async (_instance: PrincipalObject, state: DurableObjectState) => {
    const clock = new HandClock();
    const pool = new TaskIdPool(state.storage.sql);
    const provisioning = new Provisioning(state, env, pool, new AdmissionSlots(state.storage.sql), clock);
    await test({ principal, clock, pool, provisioning });
  });
}

describe("the pool's refill", () => {
  it("at rest (one creation), builds one object each REFILL_DELAY_MS, never two back to back, up to POOL_SIZE", async ({
    expect,
  }) => {
    await inPrincipalIndex(async ({ principal, clock, pool, provisioning }) => {
      // Creations pause after this one: a refill that went on building every missing object in a row
      // (it once did) would make several SQLite files on the runtime's one thread while calls are spaced.
      provisioning.drained(principal, 1);
      for (let built = 1; built <= POOL_SIZE; built++) {
        expect(clock.advance(REFILL_DELAY_MS)).toBe(1);
        const next = built < POOL_SIZE ? 1 : 0;
        await vi.waitFor(
          () => expect({ pooled: pool.size(), timers: clock.pending() }).toEqual({ pooled: built, timers: next }),
          until(),
        );
      }
      expect(clock.advance(REFILL_DELAY_MS)).toBe(0);
      expect(pool.size()).toBe(POOL_SIZE);
    });
  });

  it("drained at 200 a second, builds batches of MAX_BATCH each REFILL_DELAY_MS up to POOL_MAX, and no further", async ({
    expect,
  }) => {
    await inPrincipalIndex(async ({ principal, clock, pool, provisioning }) => {
      provisioning.drained(principal, 200);
      const sizes: number[] = [];
      while (clock.advance(REFILL_DELAY_MS) > 0) {
        const expected = Math.min(POOL_MAX, (sizes.at(-1) ?? 0) + MAX_BATCH);
        await vi.waitFor(() => expect(pool.size()).toBe(expected), until());
        // The next batch is planned once this one is pooled: wait for its timer (or its absence) too.
        await vi.waitFor(() => expect(clock.pending()).toBe(expected < POOL_MAX ? 1 : 0), until());
        sizes.push(pool.size());
      }
      expect(sizes).toEqual(Array.from({ length: POOL_MAX / MAX_BATCH }, (_, i) => (i + 1) * MAX_BATCH));
    });
  });

  it("does not start while the pool is above half its target", async ({ expect }) => {
    await inPrincipalIndex(async ({ principal, clock, pool, provisioning }) => {
      const now = clock.now();
      for (let i = 0; i < POOL_SIZE; i++) pool.add(`${i}`.padStart(32, "0"), now);
      provisioning.drained(principal, 1);
      expect(clock.pending()).toBe(0);
    });
  });
});

describe("the pool's expiry", () => {
  it("discards a burst's surplus past SURPLUS_MAX_AGE_MS and keeps POOL_SIZE ids until POOL_MAX_AGE_MS", async ({
    expect,
  }) => {
    await inPrincipalIndex(async ({ clock, pool }) => {
      const start = clock.now();
      const ids = Array.from({ length: POOL_MAX }, (_, i) => `${i}`.padStart(32, "0"));
      // Prepared one ms apart: the newest POOL_SIZE are the last ones.
      for (const [i, id] of ids.entries()) pool.add(id, start + i);
      expect(pool.nextExpiry()).toBe(start + SURPLUS_MAX_AGE_MS);
      expect(pool.takeStale(start + SURPLUS_MAX_AGE_MS - 1)).toEqual([]);
      const surplus = pool.takeStale(start + SURPLUS_MAX_AGE_MS + POOL_MAX);
      expect(surplus.sort()).toEqual(ids.slice(0, POOL_MAX - POOL_SIZE).sort());
      expect(pool.size()).toBe(POOL_SIZE);
      expect(pool.nextExpiry()).toBe(start + POOL_MAX - POOL_SIZE + POOL_MAX_AGE_MS);
      expect(pool.takeStale(start + POOL_MAX + POOL_MAX_AGE_MS).sort()).toEqual(ids.slice(POOL_MAX - POOL_SIZE).sort());
    });
  });
});
