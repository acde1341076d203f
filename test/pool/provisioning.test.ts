// The pool's refill against a principal's real index and real TaskObjects, on a clock the test
// moves by hand: what happens at which moment is decided here, not by how busy the machine is.
import { describe, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { principalObjectName } from "../../src/core/model/ids";
import { AdmissionSlots } from "../../src/principals/admission-slots";
import type { PrincipalObject } from "../../src/principals/principal-object";
import { Provisioning, type RefillClock } from "../../src/principals/provisioning";
import { POOL_SIZE, REFILL_DELAY_MS, TaskIdPool } from "../../src/principals/task-id-pool";
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
  it("goes on under steady creation that never pauses for REFILL_DELAY_MS: one object each REFILL_DELAY_MS, up to POOL_SIZE", async ({
    expect,
  }) => {
    await inPrincipalIndex(async ({ principal, clock, pool, provisioning }) => {
      const start = clock.now();
      // An admit every REFILL_DELAY_MS / 2 for 40 × REFILL_DELAY_MS: a refill put off by each admit
      // (one that waits for a pause) would never start, and the pool would stay empty.
      const grewAt: number[] = [];
      for (let step = 0; step < 80; step++) {
        provisioning.admitted(principal);
        const before = pool.size();
        if (clock.advance(REFILL_DELAY_MS / 2) === 0 || before >= POOL_SIZE) continue;
        // A refill started: it prepares one object (admits have not paused), pools its id and, the
        // pool not full yet, sets the next refill REFILL_DELAY_MS from now. The clock waits for it.
        const next = before + 1 < POOL_SIZE ? 1 : 0;
        await vi.waitFor(
          () => expect({ pooled: pool.size(), timers: clock.pending() }).toEqual({ pooled: before + 1, timers: next }),
          until(),
        );
        grewAt.push(clock.now() - start);
      }
      expect(grewAt).toEqual(Array.from({ length: POOL_SIZE }, (_, i) => (i + 1) * REFILL_DELAY_MS));
    });
  });

  it("after one admit, builds one object each REFILL_DELAY_MS, never two back to back, up to POOL_SIZE", async ({
    expect,
  }) => {
    await inPrincipalIndex(async ({ principal, clock, pool, provisioning }) => {
      // Admits pause after this one: a refill that went on building while they pause (it did) would
      // build every missing object in a row, each a new SQLite file on the runtime's one thread.
      provisioning.admitted(principal);
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
});
