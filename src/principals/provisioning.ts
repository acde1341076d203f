/**
 * Keeping a principal's ids ready: the pool of pre-provisioned task ids is refilled in the
 * background when creations leave it low, in batches sized by their rate (task-id-pool.ts,
 * refill-plan.ts), and the index's alarm discards ids left unused and
 * takes back admission slots that are overdue (admission-slots.ts).
 */
import { newTaskId, taskObjectName, type TaskObjectsEnv, type TaskView, type TaskSnapshot } from "../core";
import type { AdmissionSlots } from "./admission-slots";
import { DrainRate, planRefill, type RefillPlan } from "./refill-plan";
import { POOL_MAX_AGE_MS, REFILL_DELAY_MS, type TaskIdPool } from "./task-id-pool";

/** The time refills go by, and their timer: the real ones, or a test's clock moved by hand. */
export interface RefillClock {
  now(): number;
  setTimeout(run: () => void, ms: number): void;
}

const realClock: RefillClock = { now: () => Date.now(), setTimeout: (run, ms) => void setTimeout(run, ms) };

export class Provisioning {
  /** One refill at a time: a batch is built, pooled, and only then is the next one planned. */
  private refilling = false;
  private refillScheduled = false;
  /** Ids handed out lately (pooled or fresh): what sizes the pool and its refills (refill-plan.ts). */
  private readonly drain = new DrainRate();
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

  /** `count` ids were handed out (an admit's one, a lease's several): refill if that left the pool low. */
  drained(principal: string, count: number): void {
    this.drain.record(count, this.clock.now());
    if (this.pool.size() <= this.plan().low) this.scheduleRefill(principal);
  }

  /** Slots were leased: refill behind them, and make sure the alarm will take back those left unspent. */
  async handedOut(principal: string, count: number): Promise<void> {
    this.drained(principal, count);
    await this.armAlarm(principal);
  }

  private plan(): RefillPlan {
    return planRefill(this.drain.perSecond(this.clock.now()), this.pool.size());
  }

  /**
   * A refill starts REFILL_DELAY_MS after the pool ran low, past that creation's own round trips:
   * locally every object shares one thread, so building fresh objects during a creation would delay
   * the very creation the pool is meant to speed up. It is not put off by later admits: under steady
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
   * Builds one batch, sized by the recent rate (refill-plan.ts: one object at rest, up to MAX_BATCH
   * when calls come every few ms), and short of the target comes back REFILL_DELAY_MS later for the
   * next. At rest never two objects back to back: locally a new object's SQLite file and its fsyncs
   * take the runtime's one thread (on disk, tens of ms), and a request that needs the thread while
   * several are built waits for all of them (docs/peers.md, "Tails (issue 35)"); a busy principal
   * needs them more than that request does. Also arms the alarm that discards unused ids.
   */
  private async refill(principal: string): Promise<void> {
    if (this.refilling) return;
    this.refilling = true;
    let more = false;
    try {
      const { batch } = this.plan();
      if (batch === 0) return;
      const ids = Array.from({ length: batch }, () => newTaskId());
      const built = await Promise.allSettled(
        ids.map((taskId) => this.env.TASKS.getByName(taskObjectName(principal, taskId)).prepare()),
      );
      const now = this.clock.now();
      ids.forEach((taskId, i) => {
        // One that failed holds nothing worth keeping; creation works without it (with a fresh id).
        if (built[i]?.status === "fulfilled") this.pool.add(taskId, now);
      });
      const failed = built.find((result) => result.status === "rejected");
      if (failed) console.error("task id pool refill failed", failed.reason);
      await this.armAlarm(principal);
      more = failed === undefined && this.plan().batch > 0;
    } catch (error) {
      // Creation still works without a pool (with fresh ids); the next drain tries again.
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
