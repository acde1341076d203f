import { describe, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { readSettings } from "../../src/config";
import type { PrincipalObject } from "../../src/principals/principal-object";
import { POOL_MAX_AGE_MS, POOL_SIZE } from "../../src/principals/task-id-pool";
import { TaskGateway, type TaskView } from "../../src/core";
import { newTaskId, principalObjectName, taskObjectName } from "../../src/core/model/ids";
import { gatewayBindings } from "../../src/principals/principal-indexes";
import type { TaskObject } from "../../src/index";
import { until } from "../until";

const settle = until(100);

function index() {
  return env.PRINCIPALS.getByName(principalObjectName(`p-${crypto.randomUUID()}`));
}

function view(createdAt: number, status: TaskView["status"] = "working"): TaskView {
  const at = new Date(createdAt).toISOString();
  return { taskId: newTaskId(), status, createdAt: at, lastUpdatedAt: at, ttl: 60_000, pollInterval: 1000 };
}

/** How SQLite would run `query` in the index's database: what an index test reads. */
function queryPlan(stub: ReturnType<typeof index>, query: string, ...params: unknown[]): Promise<string> {
  return runInDurableObject(stub, (_instance: PrincipalObject, state: DurableObjectState) =>
    state.storage.sql
      .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`, ...params)
      .toArray()
      .map((row) => row.detail)
      .join("; "),
  );
}

describe("PrincipalObject", () => {
  it("lists tasks newest first in cursor pages that cover every task once", async ({ expect }) => {
    const stub = index();
    const views = Array.from({ length: 7 }, (_, i) => view(1_700_000_000_000 + Math.floor(i / 2) * 1000));
    for (const v of views)
      expect(await stub.admit({ task: v, tool: "countdown", maxActive: 100 })).toEqual({ ok: true, taskId: v.taskId });
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await stub.list(cursor, 3);
      expect(page).toBeDefined();
      seen.push(...(page?.tasks.map((t) => t.taskId) ?? []));
      cursor = page?.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    expect(pages).toBe(3);
    expect(new Set(seen).size).toBe(7);
    const expected = [...views]
      .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (b.taskId < a.taskId ? -1 : 1))
      .map((v) => v.taskId);
    expect(seen).toEqual(expected);
  });

  it("lists an announced task at once, in its place in the pages, and once its report stores it, still once", async ({
    expect,
  }) => {
    const stub = index();
    const stored = Array.from({ length: 4 }, (_, i) => view(1_700_000_000_000 + i * 1000));
    for (const v of stored) await stub.admit({ task: v, tool: "countdown", maxActive: 100 });
    const announced = view(1_700_000_001_500, "completed");
    await stub.announce(announced, "batch_process");
    const walk = async () => {
      const seen: TaskView[] = [];
      let cursor: string | undefined;
      do {
        const page = await stub.list(cursor, 2);
        seen.push(...(page?.tasks ?? []));
        cursor = page?.nextCursor;
      } while (cursor !== undefined);
      return seen;
    };
    const order = [stored[3], stored[2], announced, stored[1], stored[0]].map((v) => v?.taskId);
    const before = await walk();
    expect(before.map((t) => t.taskId)).toEqual(order);
    expect(before.find((t) => t.taskId === announced.taskId)?.status).toBe("completed");
    await stub.track(announced, "batch_process");
    expect((await walk()).map((t) => t.taskId)).toEqual(order);
    const entries = await stub.listEntries(undefined, 10);
    expect(entries?.entries.find((e) => e.task.taskId === announced.taskId)?.tool).toBe("batch_process");
  });

  it("rejects malformed cursors", async ({ expect }) => {
    const stub = index();
    for (const cursor of ["", "!!!", "bm90IGEgY3Vyc29y", "x".repeat(200), btoa("12:nothex")]) {
      expect(await stub.list(cursor, 10)).toBeUndefined();
    }
  });

  it("maps an idempotency key to its first task", async ({ expect }) => {
    const stub = index();
    const first = view(Date.now());
    expect(await stub.admit({ task: first, tool: "countdown", idempotencyKey: "k1", maxActive: 10 })).toEqual({
      ok: true,
      taskId: first.taskId,
    });
    expect(
      await stub.admit({ task: view(Date.now()), tool: "countdown", idempotencyKey: "k1", maxActive: 10 }),
    ).toEqual({ ok: false, reason: "duplicate", taskId: first.taskId });
    expect((await stub.list(undefined, 10))?.tasks).toHaveLength(1);
  });

  it("refuses a key bound to one call for another call, admitting nothing", async ({ expect }) => {
    const stub = index();
    const first = view(Date.now());
    expect(
      await stub.admit({ task: first, tool: "countdown", idempotencyKey: "k2", call: "digest-a", maxActive: 10 }),
    ).toEqual({ ok: true, taskId: first.taskId });
    expect(
      await stub.admit({
        task: view(Date.now()),
        tool: "countdown",
        idempotencyKey: "k2",
        call: "digest-a",
        maxActive: 10,
      }),
    ).toEqual({ ok: false, reason: "duplicate", taskId: first.taskId });
    expect(
      await stub.admit({
        task: view(Date.now()),
        tool: "deploy",
        idempotencyKey: "k2",
        call: "digest-b",
        maxActive: 10,
      }),
    ).toEqual({ ok: false, reason: "conflict", taskId: first.taskId, tool: "countdown" });
    expect((await stub.list(undefined, 10))?.tasks).toHaveLength(1);
  });

  it("caps unfinished tasks and frees a slot when one ends or is removed", async ({ expect }) => {
    const stub = index();
    const [a, b] = [view(Date.now()), view(Date.now())];
    await stub.admit({ task: a, tool: "countdown", maxActive: 2 });
    await stub.admit({ task: b, tool: "countdown", maxActive: 2 });
    expect(await stub.admit({ task: view(Date.now()), tool: "countdown", maxActive: 2 })).toEqual({
      ok: false,
      reason: "cap",
      active: 2,
      limit: 2,
    });
    await stub.update({ ...a, status: "completed" });
    expect(await stub.activeCount()).toBe(1);
    expect(await stub.admit({ task: view(Date.now()), tool: "countdown", maxActive: 2 })).toMatchObject({ ok: true });
    await stub.remove(b.taskId);
    expect(await stub.activeCount()).toBe(1);
  });

  it("counts unfinished tasks from an index of those alone, not by reading every listed task", async ({ expect }) => {
    const plan = await queryPlan(
      index(),
      "SELECT COUNT(*) AS n FROM tasks WHERE status IN ('working', 'input_required')",
    );
    expect(plan).toMatch(/USING COVERING INDEX tasks_active/);
  });

  it("forgets a removed task's idempotency key through an index, not by reading every key", async ({ expect }) => {
    const stub = index();
    const kept = view(Date.now());
    const removed = view(Date.now());
    expect(await stub.admit({ task: kept, tool: "countdown", idempotencyKey: "kept", maxActive: 10 })).toEqual({
      ok: true,
      taskId: kept.taskId,
    });
    expect(await stub.admit({ task: removed, tool: "countdown", idempotencyKey: "removed", maxActive: 10 })).toEqual({
      ok: true,
      taskId: removed.taskId,
    });
    await stub.remove(removed.taskId);
    // The key is free again; the other task's key still answers with its task.
    expect(
      await stub.admit({ task: view(Date.now()), tool: "countdown", idempotencyKey: "kept", maxActive: 10 }),
    ).toEqual({ ok: false, reason: "duplicate", taskId: kept.taskId });
    const again = view(Date.now());
    expect(await stub.admit({ task: again, tool: "countdown", idempotencyKey: "removed", maxActive: 10 })).toEqual({
      ok: true,
      taskId: again.taskId,
    });
    const plan = await queryPlan(stub, "DELETE FROM idempotency WHERE task_id = ?", removed.taskId);
    expect(plan).toMatch(/USING (COVERING )?INDEX idempotency_by_task/);
  });

  it("keeps no statusMessage for a working task (it changes without a report) and the final one once it ends", async ({
    expect,
  }) => {
    const stub = index();
    const task = { ...view(Date.now()), statusMessage: "Queued." };
    await stub.admit({ task, tool: "countdown", maxActive: 10 });
    expect((await stub.list(undefined, 10))?.tasks).toEqual(
      [{ ...task, statusMessage: undefined }].map(({ statusMessage: _, ...rest }) => rest),
    );
    await stub.update({ ...task, status: "completed", statusMessage: "Completed." });
    expect((await stub.list(undefined, 10))?.tasks).toEqual([
      { ...task, status: "completed", statusMessage: "Completed." },
    ]);
  });
});

describe("TaskGateway (index + objects + queue)", () => {
  const settings = { ...readSettings(env), maxActiveTasksPerPrincipal: 3 };

  it("creates tasks through the queue and keeps the index in step with their status", async ({ expect }) => {
    const gateway = new TaskGateway(gatewayBindings(env), settings, `p-${crypto.randomUUID()}`);
    const created = await gateway.create({ tool: "countdown", args: { seconds: 1 } });
    expect(created).toMatchObject({ ok: true, created: true, snapshot: { task: { status: "working" } } });
    const taskId = created.ok ? created.snapshot.task.taskId : "";
    // The real queue consumer delivers the message; the object's alarm runs the job.
    await vi.waitFor(async () => expect((await gateway.get(taskId))?.task.status).toBe("completed"), settle);
    await vi.waitFor(
      async () =>
        expect((await gateway.list(undefined))?.tasks).toMatchObject([
          { taskId, status: "completed", statusMessage: "Completed." },
        ]),
      settle,
    );
  });

  it("is told of status changes only: the run's start (same status, new message) costs no index update", async ({
    expect,
  }) => {
    const principal = `p-${crypto.randomUUID()}`;
    const gateway = new TaskGateway(gatewayBindings(env), settings, principal);
    const created = await gateway.create({ tool: "countdown", args: { seconds: 2 } });
    const taskId = created.ok ? created.snapshot.task.taskId : "";
    await vi.waitFor(
      async () => expect((await gateway.get(taskId))?.task.statusMessage).toMatch(/^Running\.|s left$/),
      settle,
    );
    const row = await runInDurableObject(
      env.PRINCIPALS.getByName(principalObjectName(principal)),
      (_instance: PrincipalObject, state: DurableObjectState) =>
        state.storage.sql
          .exec<{ status: string; view: string }>("SELECT status, view FROM tasks WHERE task_id = ?", taskId)
          .one(),
    );
    // Still the admitted copy: an update would have carried the run's start as lastUpdatedAt.
    expect(row.status).toBe("working");
    const kept = JSON.parse(row.view) as TaskView;
    expect(kept.statusMessage).toBeUndefined();
    expect(kept.lastUpdatedAt).toBe(kept.createdAt);
    await vi.waitFor(
      async () => expect((await gateway.list(undefined))?.tasks).toMatchObject([{ taskId, status: "completed" }]),
      settle,
    );
  });

  it("answers a repeated idempotency key with the same task", async ({ expect }) => {
    const gateway = new TaskGateway(gatewayBindings(env), settings, `p-${crypto.randomUUID()}`);
    const first = await gateway.create({ tool: "countdown", args: { seconds: 1 }, idempotencyKey: "same" });
    const second = await gateway.create({ tool: "countdown", args: { seconds: 1 }, idempotencyKey: "same" });
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.created).toBe(false);
    expect(second.snapshot.task.taskId).toBe(first.snapshot.task.taskId);
    expect((await gateway.list(undefined))?.tasks).toHaveLength(1);
  });

  it("refuses a task over the per-principal cap with a message saying what to do", async ({ expect }) => {
    const gateway = new TaskGateway(gatewayBindings(env), settings, `p-${crypto.randomUUID()}`);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const created = await gateway.create({ tool: "countdown", args: { seconds: 600 } });
      if (created.ok) ids.push(created.snapshot.task.taskId);
    }
    const over = await gateway.create({ tool: "countdown", args: { seconds: 600 } });
    expect(over).toMatchObject({ ok: false, reason: "cap" });
    expect(over.ok ? "" : over.message).toMatch(/Too many unfinished tasks \(3 of 3\).*tasks\/cancel/);
    for (const id of ids) await gateway.cancel(id);
  });

  it("keeps each principal's tasks invisible to every other principal", async ({ expect }) => {
    const alice = new TaskGateway(gatewayBindings(env), settings, `alice-${crypto.randomUUID()}`);
    const mallory = new TaskGateway(gatewayBindings(env), settings, `mallory-${crypto.randomUUID()}`);
    const created = await alice.create({ tool: "countdown", args: { seconds: 600 } });
    const taskId = created.ok ? created.snapshot.task.taskId : "";
    expect(await mallory.get(taskId)).toBeUndefined();
    expect(await mallory.cancel(taskId)).toEqual({ ok: false, reason: "not_found" });
    expect(await mallory.feed(taskId)).toBeUndefined();
    expect((await mallory.list(undefined))?.tasks).toEqual([]);
    expect((await alice.get(taskId))?.task.status).toBe("working");
    await alice.cancel(taskId);
  });

  it("treats ids that are not 32 hex characters as unknown", async ({ expect }) => {
    const gateway = new TaskGateway(gatewayBindings(env), settings, `p-${crypto.randomUUID()}`);
    for (const id of ["", "abc", "A".repeat(32), "../".repeat(11)]) {
      expect(await gateway.get(id)).toBeUndefined();
      expect(await gateway.cancel(id)).toEqual({ ok: false, reason: "not_found" });
    }
  });
});

describe("the pool of pre-provisioned task ids", () => {
  const settings = readSettings(env);
  const indexOf = (principal: string) => env.PRINCIPALS.getByName(principalObjectName(principal));
  const poolOf = (principal: string) =>
    runInDurableObject(indexOf(principal), (_instance: PrincipalObject, state: DurableObjectState) =>
      state.storage.sql
        .exec<{ task_id: string }>("SELECT task_id FROM pool ORDER BY prepared_at DESC")
        .toArray()
        .map((row) => row.task_id),
    );
  /** A pooled object's database: its tables (made ahead by prepare) and the rows they hold. */
  const databaseOf = (principal: string, taskId: string) =>
    runInDurableObject(
      env.TASKS.getByName(taskObjectName(principal, taskId)),
      (_instance: TaskObject, state: DurableObjectState) => {
        const tables = state.storage.sql
          .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('task', 'events')")
          .toArray()
          .map((row) => row.name);
        const rows =
          tables.length === 2
            ? state.storage.sql
                .exec<{ n: number }>("SELECT (SELECT COUNT(*) FROM task) + (SELECT COUNT(*) FROM events) AS n")
                .one().n
            : 0;
        return { tables: tables.sort(), rows };
      },
    );

  it("fills in the background after a creation, with objects whose database is made ahead and holds no task", async ({
    expect,
  }) => {
    const principal = `p-${crypto.randomUUID()}`;
    const gateway = new TaskGateway(gatewayBindings(env), settings, principal);
    const first = await gateway.create({ tool: "countdown", args: { seconds: 600 } });
    await vi.waitFor(async () => expect(await poolOf(principal)).toHaveLength(POOL_SIZE), settle);
    for (const id of await poolOf(principal)) {
      expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(await databaseOf(principal, id)).toEqual({ tables: ["events", "task"], rows: 0 });
    }
    await gateway.cancel(first.ok ? first.snapshot.task.taskId : "");
  });

  it("keeps pooled ids invisible: not found, not listed, not reachable by another principal", async ({ expect }) => {
    const principal = `p-${crypto.randomUUID()}`;
    const gateway = new TaskGateway(gatewayBindings(env), settings, principal);
    const first = await gateway.create({ tool: "countdown", args: { seconds: 600 } });
    await vi.waitFor(async () => expect(await poolOf(principal)).toHaveLength(POOL_SIZE), settle);
    const pooled = await poolOf(principal);
    for (const id of pooled) {
      expect(await gateway.get(id)).toBeUndefined();
      expect(await gateway.cancel(id)).toEqual({ ok: false, reason: "not_found" });
      expect(await gateway.feed(id)).toBeUndefined();
    }
    const listed = (await gateway.list(undefined))?.tasks.map((t) => t.taskId);
    expect(listed).toEqual([first.ok ? first.snapshot.task.taskId : ""]);
    // Once handed out, the task is still only its principal's.
    const second = await gateway.create({ tool: "countdown", args: { seconds: 600 } });
    const secondId = second.ok ? second.snapshot.task.taskId : "";
    expect(secondId).toBe(pooled[0]);
    expect(
      await new TaskGateway(gatewayBindings(env), settings, `mallory-${crypto.randomUUID()}`).get(secondId),
    ).toBeUndefined();
    expect((await gateway.get(secondId))?.task.status).toBe("working");
    for (const id of [first.ok ? first.snapshot.task.taskId : "", secondId]) await gateway.cancel(id);
  });

  it("hands each pooled id out once, even to concurrent creations", async ({ expect }) => {
    const principal = `p-${crypto.randomUUID()}`;
    const gateway = new TaskGateway(gatewayBindings(env), { ...settings, maxActiveTasksPerPrincipal: 100 }, principal);
    await gateway.create({ tool: "countdown", args: { seconds: 600 } });
    await vi.waitFor(async () => expect(await poolOf(principal)).toHaveLength(POOL_SIZE), settle);
    const created = await Promise.all(
      Array.from({ length: POOL_SIZE + 4 }, () => gateway.create({ tool: "countdown", args: { seconds: 600 } })),
    );
    const ids = created.map((c) => (c.ok ? c.snapshot.task.taskId : ""));
    expect(new Set(ids).size).toBe(ids.length);
    expect((await gateway.list(undefined, 100))?.tasks).toHaveLength(ids.length + 1);
    for (const c of (await gateway.list(undefined, 100))?.tasks ?? []) await gateway.cancel(c.taskId);
  });

  it("discards ids unused past POOL_MAX_AGE_MS (their objects left empty); a created task is never discarded", async ({
    expect,
  }) => {
    const principal = `p-${crypto.randomUUID()}`;
    const gateway = new TaskGateway(gatewayBindings(env), settings, principal);
    const kept = await gateway.create({ tool: "countdown", args: { seconds: 600 } });
    await vi.waitFor(async () => expect(await poolOf(principal)).toHaveLength(POOL_SIZE), settle);
    const pooled = await poolOf(principal);
    const alarm = await runInDurableObject(
      indexOf(principal),
      (_instance: PrincipalObject, state: DurableObjectState) => {
        state.storage.sql.exec("UPDATE pool SET prepared_at = ?", Date.now() - POOL_MAX_AGE_MS - 1);
        return state.storage.getAlarm();
      },
    );
    expect(alarm).not.toBeNull();
    expect(await runDurableObjectAlarm(indexOf(principal))).toBe(true);
    expect(await poolOf(principal)).toEqual([]);
    for (const id of pooled) expect(await databaseOf(principal, id)).toEqual({ tables: [], rows: 0 });
    // A created task is never discarded, even if asked to.
    const keptId = kept.ok ? kept.snapshot.task.taskId : "";
    expect(await env.TASKS.getByName(taskObjectName(principal, keptId)).discard()).toBe(false);
    expect((await gateway.get(keptId))?.task.status).toBe("working");
    await gateway.cancel(keptId);
  });
});
