// Admission slots leased by the principal's index (src/principals/admission-slots.ts, the isolate's
// side in src/core/client/slot-lease.ts): counted against the cap from lease to report, given back,
// and taken back by the index's alarm when overdue.
import { describe, it } from "vitest";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { readSettings } from "../../src/config";
import { TaskGateway, type TaskView } from "../../src/core";
import { newTaskId, principalObjectName, taskObjectName } from "../../src/core/model/ids";
import { gatewayBindings } from "../../src/principals/principal-indexes";
import type { PrincipalObject, TaskObject } from "../../src/index";

function view(taskId: string, status: TaskView["status"] = "working"): TaskView {
  const at = new Date().toISOString();
  return { taskId, status, createdAt: at, lastUpdatedAt: at, ttl: 60_000, pollInterval: 1000 };
}

const fresh = () => {
  const principal = `p-${crypto.randomUUID()}`;
  return { principal, index: env.PRINCIPALS.getByName(principalObjectName(principal)) };
};

const rows = (index: ReturnType<typeof fresh>["index"], table: "slots" | "pool") =>
  runInDurableObject(index, (_i: PrincipalObject, state: DurableObjectState) =>
    state.storage.sql
      .exec<{ task_id: string }>(`SELECT task_id FROM ${table}`)
      .toArray()
      .map((r) => r.task_id),
  );

describe("admission slots", () => {
  it("count against the cap from their lease until their tasks report themselves", async ({ expect }) => {
    const { principal, index } = fresh();
    const { ids } = await index.lease({ principal, want: 2, giveBack: [], maxActive: 12 });
    expect(ids).toHaveLength(2);
    const [first = "", second = ""] = ids;
    expect(await index.admit({ task: view(newTaskId()), tool: "countdown", maxActive: 2 })).toEqual({
      ok: false,
      reason: "cap",
      active: 2,
      limit: 2,
    });
    // Reported while running: counted once, as a task now, and listed.
    await index.track(view(first), "countdown");
    expect(await index.admit({ task: view(newTaskId()), tool: "countdown", maxActive: 2 })).toMatchObject({
      ok: false,
      active: 2,
    });
    expect((await index.list(undefined, 10))?.tasks.map((t) => t.taskId)).toEqual([first]);
    // Reported once finished: it no longer counts.
    await index.track(view(second, "completed"), "countdown");
    expect(await index.admit({ task: view(newTaskId()), tool: "countdown", maxActive: 2 })).toMatchObject({ ok: true });
  });

  it("are leased a quarter of the room under the cap at most, and none near it", async ({ expect }) => {
    const { principal, index } = fresh();
    expect((await index.lease({ principal, want: 16, giveBack: [], maxActive: 12 })).ids).toHaveLength(3);
    expect((await index.lease({ principal, want: 16, giveBack: [], maxActive: 12 })).ids).toHaveLength(2);
    expect((await index.lease({ principal, want: 16, giveBack: [], maxActive: 6 })).ids).toHaveLength(0);
  });

  it("are the pool's pre-provisioned ids alone when they are enough for the creations waiting, topped up with fresh ids when not", async ({
    expect,
  }) => {
    const pooled = async (count: number) => {
      const made = fresh();
      const ids = Array.from({ length: count }, () => newTaskId());
      await runInDurableObject(made.index, (_i: PrincipalObject, state: DurableObjectState) => {
        for (const [i, id] of ids.entries())
          state.storage.sql.exec("INSERT INTO pool (task_id, prepared_at) VALUES (?, ?)", id, Date.now() - 1000 + i);
      });
      return { ...made, ids };
    };
    // One creation waiting: a smaller lease of pooled ids only, newest first (no creation builds its object).
    const steady = await pooled(8);
    const lease = await steady.index.lease({
      principal: steady.principal,
      want: 16,
      giveBack: [],
      waiting: 1,
      maxActive: 100,
    });
    expect(lease.ids).toEqual([...steady.ids].reverse());
    // A burst waiting for more than the pool holds: its ids, then fresh ones up to the lease asked for.
    const burst = await pooled(2);
    const topped = await burst.index.lease({
      principal: burst.principal,
      want: 16,
      giveBack: [],
      waiting: 40,
      maxActive: 100,
    });
    expect(topped.ids).toHaveLength(16);
    expect(topped.ids.slice(0, 2)).toEqual([...burst.ids].reverse());
    expect(new Set(topped.ids).size).toBe(16);
    // An empty pool: fresh ids, however few wait.
    const empty = fresh();
    expect(
      (await empty.index.lease({ principal: empty.principal, want: 16, giveBack: [], waiting: 1, maxActive: 100 })).ids,
    ).toHaveLength(16);
  });

  it("given back unspent stop counting and return to the pool", async ({ expect }) => {
    const { principal, index } = fresh();
    const { ids } = await index.lease({ principal, want: 2, giveBack: [], maxActive: 100 });
    await index.lease({ principal, want: 0, giveBack: ids, maxActive: 100 });
    const pooled = await rows(index, "pool");
    for (const id of ids) expect(pooled).toContain(id);
    expect(await rows(index, "slots")).toEqual([]);
  });

  it("overdue are taken back by the index's alarm: an unspent one's object is left empty, a spent one's task is listed", async ({
    expect,
  }) => {
    const { principal, index } = fresh();
    const { ids } = await index.lease({ principal, want: 2, giveBack: [], maxActive: 100 });
    const [unspent = "", spent = ""] = ids;
    // A task created under the slot whose report never arrived (its object died first, say).
    await env.TASKS.getByName(taskObjectName(principal, spent)).create({
      taskId: spent,
      principal,
      tool: "countdown",
      args: { seconds: 600 },
      meta: {},
    });
    await runInDurableObject(index, (_i: PrincipalObject, state: DurableObjectState) => {
      state.storage.sql.exec("UPDATE slots SET until = ?", Date.now() - 60_000);
    });
    expect(await runDurableObjectAlarm(index)).toBe(true);
    expect(await rows(index, "slots")).toEqual([]);
    expect((await index.list(undefined, 10))?.tasks.map((t) => t.taskId)).toEqual([spent]);
    const tables = await runInDurableObject(
      env.TASKS.getByName(taskObjectName(principal, unspent)),
      (_i: TaskObject, state: DurableObjectState) =>
        state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'task'").toArray(),
    );
    expect(tables).toEqual([]);
    await env.TASKS.getByName(taskObjectName(principal, spent)).cancel();
  });

  it("let a gateway create tasks that are listed as soon as their creation answers", async ({ expect }) => {
    const gateway = new TaskGateway(
      gatewayBindings(env),
      { ...readSettings(env), maxActiveTasksPerPrincipal: 100 },
      `p-${crypto.randomUUID()}`,
    );
    for (let i = 0; i < 5; i++) {
      const created = await gateway.create({ tool: "countdown", args: { seconds: 600 } });
      const taskId = created.ok ? created.snapshot.task.taskId : "";
      expect((await gateway.list(undefined))?.tasks.map((t) => t.taskId)).toContain(taskId);
    }
    for (const task of (await gateway.list(undefined))?.tasks ?? []) await gateway.cancel(task.taskId);
  });
});
