/**
 * Keeping a principal's ids ready: the pool of pre-provisioned task ids is refilled in the
 * background after creations (task-id-pool.ts), and the index's alarm discards ids left unused and
 * takes back admission slots that are overdue (admission-slots.ts).
 */
import { newTaskId, taskObjectName, type TaskObjectsEnv, type TaskView, type TaskSnapshot } from "../core";
import type { AdmissionSlots } from "./admission-slots";
import { POOL_MAX_AGE_MS, POOL_SIZE, REFILL_DELAY_MS, type TaskIdPool } from "./task-id-pool";

/** The time refills go by, and their timer: the real ones, or a test's clock moved by hand. */
export interface RefillClock {
  now(): number;
  setTimeout(run: () => void, ms: number): void;
}

const realClock: RefillClock = { now: () => Date.now(), setTimeout: (run, ms) => void setTimeout(run, ms) };

export class Provisioning {
  /** One refill at a time: during a burst it adds a single fresh object's work, not one per creation. */
  private refilling = false;
  private refillScheduled = false;
  /** When the alarm is set for, as far as this instance knows (after an eviction it is checked again). */
  private armedFor: number | undefined;
  private principalStored = false;

  constructor(
    private readonly ctx: DurableObjectState,
    private readonly env: TaskObjectsEnv,
    private readonly pool: TaskIdPool,
    private readonly slots: AdmissionSlots,
    private readonly clock: RefillClock = realClock,
  ) {}

  /** A task was admitted: refill the pool behind it. */
  admitted(principal: string): void {
    this.scheduleRefill(principal);
  }

  /** Slots were leased: refill behind them, and make sure the alarm will take back those left unspent. */
  async handedOut(principal: string): Promise<void> {
    this.admitted(principal);
    await this.armAlarm(principal);
  }

  /**
   * A refill starts REFILL_DELAY_MS after an admit, past that creation's own round trips: locally
   * every object shares one thread, so building a fresh object during a creation would delay the
   * very creation the pool is meant to speed up. It is not put off by later admits: under steady
   * load admits never pause, and a pool that only refills in pauses runs dry (docs/core.md).
   */
  private scheduleRefill(principal: string): void {
    if (this.refillScheduled || this.refilling) return;
    this.refillScheduled = true;
    this.clock.setTimeout(() => {
      this.refillScheduled = false;
      void this.refill(principal); // failures are logged inside; creation never waits for a refill
    }, REFILL_DELAY_MS);
  }

  /**
   * Adds one object to the pool and, short of POOL_SIZE, comes back REFILL_DELAY_MS later for the
   * next: never two built back to back. Locally a new object's SQLite file and its fsyncs take the
   * runtime's one thread (on disk, tens of ms), and a request that needs the thread a few times
   * while several are built in a row waits for all of them (docs/peers.md, "Tails (issue 35)").
   * Also arms the alarm that discards unused ids.
   */
  private async refill(principal: string): Promise<void> {
    if (this.refilling) return;
    this.refilling = true;
    let more = false;
    try {
      if (this.pool.size() >= POOL_SIZE) return;
      const taskId = newTaskId();
      await this.env.TASKS.getByName(taskObjectName(principal, taskId)).prepare();
      this.pool.add(taskId, this.clock.now());
      await this.armAlarm(principal);
      more = this.pool.size() < POOL_SIZE;
    } catch (error) {
      // Creation still works without a pool (with fresh ids); the next admit tries again.
      console.error("task id pool refill failed", error);
    } finally {
      this.refilling = false;
    }
    if (more) this.scheduleRefill(principal);
  }

  /** Every pooled id and leased slot must meet the alarm, even if this object is never asked again. */
  async armAlarm(principal: string): Promise<void> {
    const due = this.nextDue();
    if (due === undefined || (this.armedFor !== undefined && this.armedFor <= due)) return;
    // The alarm needs the principal to name the objects it discards.
    if (!this.principalStored) {
      await this.ctx.storage.put("principal", principal);
      this.principalStored = true;
    }
    const armed = await this.ctx.storage.getAlarm();
    if (armed === null || armed > due) await this.ctx.storage.setAlarm(due);
    this.armedFor = Math.min(due, armed ?? due);
  }

  private nextDue(): number | undefined {
    const times = [this.pool.nextExpiry(), this.slots.nextOverdue()].filter((t): t is number => t !== undefined);
    return times.length > 0 ? Math.min(...times) : undefined;
  }

  /** The index's alarm: `track` lists a slot's task that never reported itself. */
  async onAlarm(track: (task: TaskView, tool: string) => Promise<void>): Promise<void> {
    this.armedFor = undefined;
    const principal = await this.ctx.storage.get<string>("principal");
    const now = Date.now();
    const stale = this.pool.takeStale(now);
    if (principal === undefined) return;
    const task = (taskId: string) => this.env.TASKS.getByName(taskObjectName(principal, taskId));
    const results = await Promise.allSettled(stale.map((taskId) => task(taskId).discard()));
    const failed = stale.filter((_, i) => results[i]?.status === "rejected");
    // Still stale, so never handed out; the retry a minute later deletes them.
    for (const taskId of failed) this.pool.add(taskId, now - POOL_MAX_AGE_MS);
    let retry = failed.length > 0;
    for (const taskId of this.slots.overdue(now)) {
      try {
        if (await task(taskId).discard()) this.slots.remove(taskId);
        else {
          const snapshot = await snapshotOf(task(taskId));
          if (snapshot) await track(snapshot.task, snapshot.tool);
          else this.slots.remove(taskId); // created, and already expired
        }
      } catch {
        retry = true; // still counted; tried again a minute later
      }
    }
    const due = retry ? now + 60_000 : this.nextDue();
    if (due !== undefined) await this.ctx.storage.setAlarm(due);
    this.armedFor = due;
  }
}

/** A task's snapshot under its declared type (the stub's own types turn our JSON records into `never`). */
function snapshotOf(stub: ReturnType<TaskObjectsEnv["TASKS"]["getByName"]>): Promise<TaskSnapshot | undefined> {
  return stub.get();
}
