/**
 * PrincipalObject: one small index per principal. It lists the principal's tasks for
 * `tasks/list` (cursor pages), maps idempotency keys to tasks, and enforces the cap on
 * unfinished tasks, admitting a task at a time (admit) or leasing admission slots to isolates
 * (lease, track: admission-slots.ts). Each TaskObject stays the source of truth; this copy may
 * lag, never leak. Its RPC methods the core calls are the core's port (src/core/principal-index-port.ts).
 */
import { DurableObject } from "cloudflare:workers";
import {
  newTaskId,
  type AdmitInput,
  type AdmitResult,
  type LeaseInput,
  type PrincipalIndex,
  type SlotGrant,
  type TaskEntryPage,
  type TaskPage,
  type TaskObjectsEnv,
  type TaskView,
} from "../core";
import { AdmissionSlots, SLOT_LEASE_MS, slotAllowance } from "./admission-slots";
import { AnnouncedTasks, type IndexRow } from "./announced-tasks";
import { Provisioning } from "./provisioning";
import { TaskIdPool } from "./task-id-pool";

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

export class PrincipalObject extends DurableObject<TaskObjectsEnv> implements PrincipalIndex {
  private readonly sql: SqlStorage;
  private readonly pool: TaskIdPool;
  private readonly slots: AdmissionSlots;
  private readonly provisioning: Provisioning;
  private readonly announced = new AnnouncedTasks();

  constructor(ctx: DurableObjectState, env: TaskObjectsEnv) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`
      CREATE TABLE IF NOT EXISTS tasks (
        task_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, status TEXT NOT NULL, tool TEXT NOT NULL, view TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS tasks_by_age ON tasks (created_at DESC, task_id DESC);
      CREATE INDEX IF NOT EXISTS tasks_active ON tasks (status) WHERE ${ACTIVE};
      CREATE TABLE IF NOT EXISTS idempotency (key TEXT PRIMARY KEY, task_id TEXT NOT NULL, created_at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS idempotency_by_task ON idempotency (task_id);
    `);
    // Keys recorded before calls were fingerprinted have no call: they match any call, as they did.
    const columns = this.sql.exec<{ name: string }>("PRAGMA table_info(idempotency)").toArray();
    if (!columns.some((column) => column.name === "call"))
      this.sql.exec("ALTER TABLE idempotency ADD COLUMN call TEXT");
    this.pool = new TaskIdPool(this.sql);
    this.slots = new AdmissionSlots(this.sql);
    this.provisioning = new Provisioning(ctx, env, this.pool, this.slots);
  }

  /** Unfinished tasks, and slots leased for tasks not yet reported: what the cap counts. */
  private used(): number {
    return this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM tasks WHERE ${ACTIVE}`).one().n + this.slots.count();
  }

  /**
   * Leases up to `want` admission slots (the pool's pre-provisioned ids first), counted against the
   * cap until their tasks report themselves (track) or they come back; none near the cap.
   */
  async lease({ principal, want, giveBack, waiting = want, maxActive }: LeaseInput): Promise<SlotGrant> {
    const now = Date.now();
    // Given back unspent: their objects hold nothing, so they go back to the pool for the next lease.
    for (const taskId of giveBack) if (this.slots.remove(taskId)) this.pool.add(taskId, now);
    const count = slotAllowance(want, this.used(), maxActive);
    // Pooled ids alone when they are enough for the creations waiting: a fresh id's object is built
    // on its creation's path (about 1 ms locally: docs/peers.md, "What the local runtime charges
    // per unit"), and the next lease's round trip costs less. A burst waiting for more than the
    // pool holds gets fresh ids up to the lease.
    const ids = this.pool.takeUpTo(count, now);
    if (ids.length < Math.min(count, Math.max(1, waiting))) while (ids.length < count) ids.push(newTaskId());
    const until = now + SLOT_LEASE_MS;
    this.slots.add(ids, until);
    if (ids.length > 0) await this.provisioning.handedOut(principal, ids.length);
    // `until` is on this object's clock (the slots table's); the caller gets what is left of it, a
    // length, and puts it on its own clock (core/client/slot-lease.ts).
    return { ids, ms: Math.max(0, until - Date.now()) };
  }

  /** A task answered before it is written (announced-tasks.ts): listed at once, stored by its track or update. */
  async announce(task: TaskView, tool: string): Promise<void> {
    this.announced.add(
      { taskId: task.taskId, createdAt: Date.parse(task.createdAt), task: indexedView(task), tool },
      Date.now(),
    );
  }

  /** A task created under a slot reports itself (its view now): listed from here on; its slot no longer counts. */
  async track(task: TaskView, tool: string): Promise<void> {
    this.announced.remove(task.taskId);
    this.sql.exec(
      "INSERT INTO tasks (task_id, created_at, status, tool, view) VALUES (?, ?, ?, ?, ?) ON CONFLICT(task_id) DO UPDATE SET status = excluded.status, view = excluded.view",
      task.taskId,
      Date.parse(task.createdAt),
      task.status,
      tool,
      JSON.stringify(indexedView(task)),
    );
    this.slots.remove(task.taskId);
  }

  /** Record a new task, unless its idempotency key is taken or the principal is at its cap. Atomic: one object, no await. */
  async admit({ task: proposed, principal, tool, idempotencyKey, call, maxActive }: AdmitInput): Promise<AdmitResult> {
    if (idempotencyKey !== undefined) {
      type Prior = { task_id: string; call: string | null; tool: string | null };
      const prior = this.sql
        .exec<Prior>(
          "SELECT i.task_id, i.call, t.tool FROM idempotency i LEFT JOIN tasks t ON t.task_id = i.task_id WHERE i.key = ?",
          idempotencyKey,
        )
        .toArray()[0];
      if (prior && prior.call !== null && call !== undefined && prior.call !== call)
        return { ok: false, reason: "conflict", taskId: prior.task_id, tool: prior.tool ?? tool };
      if (prior) return { ok: false, reason: "duplicate", taskId: prior.task_id };
    }
    const active = this.used();
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
      this.sql.exec(
        "INSERT INTO idempotency (key, task_id, created_at, call) VALUES (?, ?, ?, ?)",
        idempotencyKey,
        task.taskId,
        createdAt,
        call ?? null,
      );
    }
    if (principal !== undefined) this.provisioning.drained(principal, 1);
    return { ok: true, taskId: task.taskId };
  }

  /**
   * Discards the pool's stale ids and takes back overdue slots (provisioning.ts): a slot whose
   * object holds no task is discarded; one whose task never reported itself is tracked now.
   */
  override async alarm(): Promise<void> {
    await this.provisioning.onAlarm((task, tool) => this.track(task, tool));
  }

  /** A TaskObject reports a status change (only those: not every status event). Unknown tasks are ignored (they were removed or never admitted). */
  async update(task: TaskView): Promise<void> {
    this.announced.remove(task.taskId);
    this.sql.exec(
      "UPDATE tasks SET status = ?, view = ? WHERE task_id = ?",
      task.status,
      JSON.stringify(indexedView(task)),
      task.taskId,
    );
  }

  /** The task expired, or its creation was rolled back. */
  async remove(taskId: string): Promise<void> {
    this.announced.remove(taskId);
    this.sql.exec("DELETE FROM tasks WHERE task_id = ?", taskId);
    this.sql.exec("DELETE FROM idempotency WHERE task_id = ?", taskId);
  }

  /** Newest first. The cursor is opaque to clients; a malformed one returns undefined. */
  async list(cursor: string | undefined, limit: number): Promise<TaskPage | undefined> {
    const page = this.page(cursor, limit);
    return (
      page && {
        tasks: page.entries.map((entry) => entry.task),
        ...(page.nextCursor !== undefined && { nextCursor: page.nextCursor }),
      }
    );
  }

  /** The same page with each task's tool name, for views that show it (the task console). */
  async listEntries(cursor: string | undefined, limit: number): Promise<TaskEntryPage | undefined> {
    return this.page(cursor, limit);
  }

  private page(cursor: string | undefined, limit: number): TaskEntryPage | undefined {
    type Row = { task_id: string; created_at: number; tool: string; view: string };
    let rows: Row[];
    const pageSize = Math.max(1, Math.min(limit, 100));
    const position = cursor === undefined ? undefined : decodeCursor(cursor);
    if (cursor !== undefined && !position) return undefined;
    if (position === undefined) {
      rows = this.sql
        .exec<Row>(
          "SELECT task_id, created_at, tool, view FROM tasks ORDER BY created_at DESC, task_id DESC LIMIT ?",
          pageSize + 1,
        )
        .toArray();
    } else {
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
    const stored = rows.map(
      (row): IndexRow => ({
        taskId: row.task_id,
        createdAt: row.created_at,
        tool: row.tool,
        task: JSON.parse(row.view) as TaskView,
      }),
    );
    const merged = this.announced.merge(stored, position, Date.now());
    const page = merged.slice(0, pageSize);
    const last = page[page.length - 1];
    return {
      entries: page.map(({ task, tool }) => ({ task, tool })),
      ...(merged.length > pageSize && last && { nextCursor: encodeCursor(last.createdAt, last.taskId) }),
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
