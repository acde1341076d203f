/**
 * PrincipalObject: one small index per principal. It lists the principal's tasks for
 * `tasks/list` (cursor pages), maps idempotency keys to tasks, and enforces the cap on
 * unfinished tasks. Each TaskObject stays the source of truth; this copy may lag, never leak.
 */
import { DurableObject } from "cloudflare:workers";
import { newTaskId, taskObjectName } from "../core/ids";
import type { TaskEntryPage, TaskPage, TaskView } from "../core/task-record";
import { POOL_MAX_AGE_MS, POOL_SIZE, REFILL_DELAY_MS, TaskIdPool } from "./task-id-pool";

export type AdmitResult =
  /** `taskId` is the id to create the task under: a pre-provisioned one, or else the one proposed. */
  | { ok: true; taskId: string }
  | { ok: false; reason: "duplicate"; taskId: string }
  | { ok: false; reason: "cap"; active: number; limit: number };

export interface AdmitInput {
  /** The proposed task; its id is used when the pool has none ready. */
  task: TaskView;
  /** Whose index this is; with it, the task gets a pre-provisioned id and the pool is refilled. */
  principal?: string;
  tool: string;
  idempotencyKey?: string;
  maxActive: number;
}

const ACTIVE = "status IN ('working', 'input_required')";

/**
 * The index's copy of a task view. A working task's statusMessage changes without its status
 * ("Running.", waits, retries) and the TaskObject only reports status changes, so the copy leaves
 * it out rather than show a stale one; tasks/get has the current message.
 */
export function indexedView(task: TaskView): TaskView {
  if (task.status !== "working" || task.statusMessage === undefined) return task;
  const { statusMessage: _dropped, ...rest } = task;
  return rest;
}

export class PrincipalObject extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly pool: TaskIdPool;
  /** One refill at a time: during a burst it adds a single fresh object's work, not one per creation. */
  private refilling = false;
  private refillTimer: ReturnType<typeof setTimeout> | undefined;
  private lastAdmitAt = 0;
  /** The cleanup alarm is set for the pool's oldest id (in memory: after an eviction it is checked again). */
  private cleanupArmed = false;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS tasks (
        task_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, status TEXT NOT NULL, tool TEXT NOT NULL, view TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS tasks_by_age ON tasks (created_at DESC, task_id DESC);
      CREATE INDEX IF NOT EXISTS tasks_active ON tasks (status) WHERE ${ACTIVE};
      CREATE TABLE IF NOT EXISTS idempotency (key TEXT PRIMARY KEY, task_id TEXT NOT NULL, created_at INTEGER NOT NULL);
    `);
    this.pool = new TaskIdPool(this.sql);
  }

  /** Record a new task, unless its idempotency key is taken or the principal is at its cap. Atomic: one object, no await. */
  async admit({ task: proposed, principal, tool, idempotencyKey, maxActive }: AdmitInput): Promise<AdmitResult> {
    if (idempotencyKey !== undefined) {
      const prior = this.sql.exec<{ task_id: string }>("SELECT task_id FROM idempotency WHERE key = ?", idempotencyKey).toArray()[0];
      if (prior) return { ok: false, reason: "duplicate", taskId: prior.task_id };
    }
    const active = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM tasks WHERE ${ACTIVE}`).one().n;
    if (active >= maxActive) return { ok: false, reason: "cap", active, limit: maxActive };
    const pooled = principal === undefined ? undefined : this.pool.take(Date.now());
    const task = pooled === undefined ? proposed : { ...proposed, taskId: pooled };
    const createdAt = Date.parse(task.createdAt);
    this.sql.exec(
      "INSERT INTO tasks (task_id, created_at, status, tool, view) VALUES (?, ?, ?, ?, ?) ON CONFLICT(task_id) DO NOTHING",
      task.taskId,
      createdAt,
      task.status,
      tool,
      JSON.stringify(indexedView(task)),
    );
    if (idempotencyKey !== undefined) {
      this.sql.exec("INSERT INTO idempotency (key, task_id, created_at) VALUES (?, ?, ?)", idempotencyKey, task.taskId, createdAt);
    }
    if (principal !== undefined) {
      this.lastAdmitAt = Date.now();
      this.scheduleRefill(principal);
    }
    return { ok: true, taskId: task.taskId };
  }

  /**
   * A refill starts REFILL_DELAY_MS after an admit, past that creation's own round trips: locally
   * every object shares one thread, so building a fresh object during a creation would delay the
   * very creation the pool is meant to speed up. It is not put off by later admits: under steady
   * load admits never pause, and a pool that only refills in pauses runs dry (docs/core.md).
   */
  private scheduleRefill(principal: string): void {
    if (this.refillTimer !== undefined || this.refilling) return;
    this.refillTimer = setTimeout(() => {
      this.refillTimer = undefined;
      void this.refill(principal); // failures are logged inside; creation never waits for a refill
    }, REFILL_DELAY_MS);
  }

  private quiet(): boolean {
    return Date.now() - this.lastAdmitAt >= REFILL_DELAY_MS;
  }

  /**
   * Adds one object to the pool, then more while admits pause, up to POOL_SIZE; while creations go
   * on it stops after one and comes back REFILL_DELAY_MS later, so a burst meets at most one
   * object being built at a time. Also arms the alarm that discards unused ids.
   */
  private async refill(principal: string): Promise<void> {
    if (this.refilling) return;
    this.refilling = true;
    let more = false;
    try {
      do {
        if (this.pool.size() >= POOL_SIZE) return;
        const taskId = newTaskId();
        await this.env.TASKS.getByName(taskObjectName(principal, taskId)).prepare();
        this.pool.add(taskId, Date.now());
        await this.armCleanup(principal);
      } while (this.quiet());
      more = this.pool.size() < POOL_SIZE;
    } catch (error) {
      // Creation still works without a pool (with fresh ids); the next admit tries again.
      console.error("task id pool refill failed", error);
    } finally {
      this.refilling = false;
    }
    if (more) this.scheduleRefill(principal);
  }

  /** Every pooled id must meet the cleanup alarm, even if this object is never asked again. */
  private async armCleanup(principal: string): Promise<void> {
    if (this.cleanupArmed) return;
    // The alarm needs the principal to name the objects it discards.
    await this.ctx.storage.put("principal", principal);
    const expiry = this.pool.nextExpiry();
    const armed = await this.ctx.storage.getAlarm();
    if (expiry !== undefined && (armed === null || armed > expiry)) await this.ctx.storage.setAlarm(expiry);
    this.cleanupArmed = true;
  }

  /** Discards the pool's stale ids (their objects hold no task) and re-arms for the next. */
  override async alarm(): Promise<void> {
    const principal = await this.ctx.storage.get<string>("principal");
    const now = Date.now();
    const stale = this.pool.takeStale(now);
    if (principal === undefined) return;
    const results = await Promise.allSettled(stale.map((taskId) => this.env.TASKS.getByName(taskObjectName(principal, taskId)).discard()));
    const failed = stale.filter((_, i) => results[i]?.status === "rejected");
    // Still stale, so never handed out; the retry a minute later deletes them.
    for (const taskId of failed) this.pool.add(taskId, now - POOL_MAX_AGE_MS);
    const expiry = failed.length > 0 ? now + 60_000 : this.pool.nextExpiry();
    if (expiry !== undefined) await this.ctx.storage.setAlarm(expiry);
    this.cleanupArmed = expiry !== undefined;
  }

  /** A TaskObject reports a status change (only those: not every status event). Unknown tasks are ignored (they were removed or never admitted). */
  async update(task: TaskView): Promise<void> {
    this.sql.exec("UPDATE tasks SET status = ?, view = ? WHERE task_id = ?", task.status, JSON.stringify(indexedView(task)), task.taskId);
  }

  /** The task expired, or its creation was rolled back. */
  async remove(taskId: string): Promise<void> {
    this.sql.exec("DELETE FROM tasks WHERE task_id = ?", taskId);
    this.sql.exec("DELETE FROM idempotency WHERE task_id = ?", taskId);
  }

  /** Newest first. The cursor is opaque to clients; a malformed one returns undefined. */
  async list(cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    const page = this.page(cursor, limit);
    return page && { tasks: page.entries.map((entry) => entry.task), ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }) };
  }

  /** The same page with each task's tool name, for views that show it (the task console). */
  async listEntries(cursor: string | undefined, limit: number): Promise<TaskEntryPage | undefined> {
    return this.page(cursor, limit);
  }

  private page(cursor: string | undefined, limit: number): TaskEntryPage | undefined {
    type Row = { task_id: string; created_at: number; tool: string; view: string };
    let rows: Row[];
    const pageSize = Math.max(1, Math.min(limit, 100));
    if (cursor === undefined) {
      rows = this.sql.exec<Row>("SELECT task_id, created_at, tool, view FROM tasks ORDER BY created_at DESC, task_id DESC LIMIT ?", pageSize + 1).toArray();
    } else {
      const position = decodeCursor(cursor);
      if (!position) return undefined;
      rows = this.sql
        .exec<Row>(
          "SELECT task_id, created_at, tool, view FROM tasks WHERE (created_at < ?) OR (created_at = ? AND task_id < ?) ORDER BY created_at DESC, task_id DESC LIMIT ?",
          position.createdAt,
          position.createdAt,
          position.taskId,
          pageSize + 1,
        )
        .toArray();
    }
    const page = rows.slice(0, pageSize);
    const last = page[page.length - 1];
    return {
      entries: page.map((row) => ({ task: JSON.parse(row.view) as TaskView, tool: row.tool })),
      ...(rows.length > pageSize && last && { nextCursor: encodeCursor(last.created_at, last.task_id) }),
    };
  }

  async activeCount(): Promise<number> {
    return this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM tasks WHERE ${ACTIVE}`).one().n;
  }
}

function encodeCursor(createdAt: number, taskId: string): string {
  return btoa(`${createdAt}:${taskId}`).replace(/=+$/, "");
}

function decodeCursor(cursor: string): { createdAt: number; taskId: string } | undefined {
  if (cursor.length > 128 || !/^[A-Za-z0-9+/]+$/.test(cursor)) return undefined;
  let text: string;
  try {
    text = atob(cursor);
  } catch {
    return undefined;
  }
  const match = /^(\d{1,16}):([0-9a-f]{32})$/.exec(text);
  if (!match?.[1] || !match[2]) return undefined;
  return { createdAt: Number(match[1]), taskId: match[2] };
}
