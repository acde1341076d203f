import { describe, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { readSettings } from "../../src/config";
import { TaskGateway } from "../../src/tasks/gateway";
import { newTaskId, principalObjectName } from "../../src/tasks/ids";
import type { TaskView } from "../../src/tasks/model";

const settle = { timeout: 15_000, interval: 100 };

function index() {
  return env.PRINCIPALS.getByName(principalObjectName(`p-${crypto.randomUUID()}`));
}

function view(createdAt: number, status: TaskView["status"] = "working"): TaskView {
  const at = new Date(createdAt).toISOString();
  return { taskId: newTaskId(), status, createdAt: at, lastUpdatedAt: at, ttl: 60_000, pollInterval: 1000 };
}

describe("PrincipalObject", () => {
  it("lists tasks newest first in cursor pages that cover every task once", async ({ expect }) => {
    const stub = index();
    const views = Array.from({ length: 7 }, (_, i) => view(1_700_000_000_000 + Math.floor(i / 2) * 1000));
    for (const v of views) expect(await stub.admit({ task: v, tool: "countdown", maxActive: 100 })).toEqual({ ok: true });
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
    const expected = [...views].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (b.taskId < a.taskId ? -1 : 1)).map((v) => v.taskId);
    expect(seen).toEqual(expected);
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
    expect(await stub.admit({ task: first, tool: "countdown", idempotencyKey: "k1", maxActive: 10 })).toEqual({ ok: true });
    expect(await stub.admit({ task: view(Date.now()), tool: "countdown", idempotencyKey: "k1", maxActive: 10 })).toEqual({ ok: false, reason: "duplicate", taskId: first.taskId });
    expect((await stub.list(undefined, 10))?.tasks).toHaveLength(1);
  });

  it("caps unfinished tasks and frees a slot when one ends or is removed", async ({ expect }) => {
    const stub = index();
    const [a, b] = [view(Date.now()), view(Date.now())];
    await stub.admit({ task: a, tool: "countdown", maxActive: 2 });
    await stub.admit({ task: b, tool: "countdown", maxActive: 2 });
    expect(await stub.admit({ task: view(Date.now()), tool: "countdown", maxActive: 2 })).toEqual({ ok: false, reason: "cap", active: 2, limit: 2 });
    await stub.update({ ...a, status: "completed" });
    expect(await stub.activeCount()).toBe(1);
    expect(await stub.admit({ task: view(Date.now()), tool: "countdown", maxActive: 2 })).toEqual({ ok: true });
    await stub.remove(b.taskId);
    expect(await stub.activeCount()).toBe(1);
  });
});

describe("TaskGateway (index + objects + queue)", () => {
  const settings = { ...readSettings(env), maxActiveTasksPerPrincipal: 3 };

  it("creates tasks through the queue and keeps the index in step with their status", async ({ expect }) => {
    const gateway = new TaskGateway(env, settings, `p-${crypto.randomUUID()}`);
    const created = await gateway.create({ tool: "countdown", args: { seconds: 1 } });
    expect(created).toMatchObject({ ok: true, created: true, snapshot: { task: { status: "working" } } });
    const taskId = created.ok ? created.snapshot.task.taskId : "";
    // The real queue consumer delivers the message; the object's alarm runs the job.
    await vi.waitFor(async () => expect((await gateway.get(taskId))?.task.status).toBe("completed"), settle);
    await vi.waitFor(async () => expect((await gateway.list(undefined))?.tasks).toMatchObject([{ taskId, status: "completed" }]), settle);
  });

  it("answers a repeated idempotency key with the same task", async ({ expect }) => {
    const gateway = new TaskGateway(env, settings, `p-${crypto.randomUUID()}`);
    const first = await gateway.create({ tool: "countdown", args: { seconds: 1 }, idempotencyKey: "same" });
    const second = await gateway.create({ tool: "countdown", args: { seconds: 1 }, idempotencyKey: "same" });
    expect(first.ok && second.ok).toBe(true);
    if (!first.ok || !second.ok) return;
    expect(second.created).toBe(false);
    expect(second.snapshot.task.taskId).toBe(first.snapshot.task.taskId);
    expect((await gateway.list(undefined))?.tasks).toHaveLength(1);
  });

  it("refuses a task over the per-principal cap with a message saying what to do", async ({ expect }) => {
    const gateway = new TaskGateway(env, settings, `p-${crypto.randomUUID()}`);
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
    const alice = new TaskGateway(env, settings, `alice-${crypto.randomUUID()}`);
    const mallory = new TaskGateway(env, settings, `mallory-${crypto.randomUUID()}`);
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
    const gateway = new TaskGateway(env, settings, `p-${crypto.randomUUID()}`);
    for (const id of ["", "abc", "A".repeat(32), "../".repeat(11)]) {
      expect(await gateway.get(id)).toBeUndefined();
      expect(await gateway.cancel(id)).toEqual({ ok: false, reason: "not_found" });
    }
  });
});
