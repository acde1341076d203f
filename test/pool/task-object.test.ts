import { describe, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { readSettings } from "../../src/config";
import { TaskGateway, type TaskEvent } from "../../src/core";
import { TaskObjectRuntime } from "../../src/core/object/runtime";
import { gatewayBindings } from "../../src/principals/principal-indexes";
import { decodeEventStreamChunk } from "../../src/streams/event-stream-frames";
import { decodeFeedMessage } from "../../src/streams/feed-frames";
import type { TaskObject } from "../../src/index";
import { freshTask, hasActiveRun, openTaskFeed, storedEvents, storedRecord, taskStub } from "./support";
import { until } from "../until";

const settle = until(100);

describe("TaskObject.create", () => {
  it("writes the task once; a repeat with the same id returns the stored task, told it did not create it", async ({
    expect,
  }) => {
    const { stub, input } = freshTask();
    const first = await stub.create(input);
    const again = await stub.create({ ...input, args: { seconds: 99 } });
    expect([first.created, again.created]).toEqual([true, false]);
    expect(again.task).toEqual(first.task);
    expect((await storedRecord(stub))?.args).toEqual({ seconds: 1 });
    expect((await storedEvents(stub)).map((e) => e.type)).toEqual(["status"]);
  });

  it("answers with a working task carrying ttl and pollInterval", async ({ expect }) => {
    const { stub, input, taskId } = freshTask("countdown", { seconds: 1 }, { requestedTtlMs: 60_000 });
    const { task } = await stub.create(input);
    expect(task).toMatchObject({ taskId, status: "working", ttl: 60_000, pollInterval: 500 });
    expect(Date.parse(task.createdAt)).toBe(Date.parse(task.lastUpdatedAt));
  });

  it("does not start the job before it is delivered (the dispatch grace holds it)", async ({ expect }) => {
    const { stub, input } = freshTask();
    await stub.create(input);
    const record = await storedRecord(stub);
    expect(record?.run).toMatchObject({ phase: "queued", delivered: false, runs: 0 });
    const alarm = await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) =>
      state.storage.getAlarm(),
    );
    expect(alarm).toBe(record?.run.dispatchBy);
  });
});

describe("TaskGateway.create outside a request (no waitUntil)", () => {
  it("sends the job's queue message before it returns; the consumer's delivery starts the job", async ({ expect }) => {
    const principal = `p-${crypto.randomUUID()}`;
    const created = await new TaskGateway(gatewayBindings(env), readSettings(env), principal).create({
      tool: "countdown",
      args: { seconds: 1 },
      meta: {},
    });
    if (!created.ok) throw new Error(`not created: ${JSON.stringify(created)}`);
    const stub = taskStub(principal, created.snapshot.task.taskId);
    // The pool holds tasks for DISPATCH_GRACE_MS (60 s), so only the queue message can start this one.
    await vi.waitFor(async () => expect((await storedRecord(stub))?.run.delivered).toBe(true), settle);
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
    expect((await storedRecord(stub))?.run.runs).toBe(1);
  });
});

describe("TaskObject.deliver", () => {
  it("arms the alarm at once and the alarm runs the job to its result", async ({ expect }) => {
    const { stub, input } = freshTask("countdown", { seconds: 1 });
    await stub.create(input);
    expect(await stub.deliver()).toBe("started");
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
    const snapshot = await stub.get();
    expect(snapshot?.outcome).toEqual({
      kind: "result",
      result: {
        content: [{ type: "text", text: "Countdown of 1 s finished." }],
        structuredContent: { summary: "Countdown of 1 s finished." },
      },
    });
    expect(snapshot?.progress).toEqual({ progress: 1, total: 1, message: "0 s left" });
  });

  it("treats a repeated delivery as a duplicate and runs the job only once", async ({ expect }) => {
    const { stub, input } = freshTask("countdown", { seconds: 1 });
    await stub.create(input);
    expect(await stub.deliver()).toBe("started");
    expect(await stub.deliver()).toBe("duplicate");
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
    expect(await stub.deliver()).toBe("duplicate");
    expect((await storedRecord(stub))?.run.runs).toBe(1);
    const types = (await storedEvents(stub)).map((e) => e.type);
    expect(types.filter((t) => t === "result")).toHaveLength(1);
    expect(types.filter((t) => t === "progress")).toHaveLength(1);
  });

  it("reports an unknown task as gone", async ({ expect }) => {
    const { stub } = freshTask();
    expect(await stub.deliver()).toBe("gone");
    expect(await stub.get()).toBeUndefined();
  });
});

describe("TaskObject.cancel", () => {
  it("cancels a running job: its signal fires and the run ends promptly", async ({ expect }) => {
    const { stub, input } = freshTask("countdown", { seconds: 600 });
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => expect((await stub.get())?.progress?.progress ?? 0).toBeGreaterThanOrEqual(1), settle);
    expect(await hasActiveRun(stub)).toBe(true);
    const outcome = await stub.cancel();
    expect(outcome).toMatchObject({ ok: true, snapshot: { task: { status: "cancelled" } } });
    // The countdown has 599 s left; only its abort signal can end the run this soon.
    await vi.waitFor(async () => expect(await hasActiveRun(stub)).toBe(false), settle);
    const record = await storedRecord(stub);
    expect(record?.status).toBe("cancelled");
    expect(record?.run.phase).toBe("done");
  });

  it("refuses to cancel a terminal task and keeps its first terminal state", async ({ expect }) => {
    const { stub, input } = freshTask("countdown", { seconds: 1 });
    await stub.create(input);
    await stub.cancel("first");
    expect(await stub.cancel("second")).toEqual({ ok: false, reason: "terminal" });
    await stub.failDelivery("late dead letter");
    expect(await stub.deliver()).toBe("duplicate");
    const record = await storedRecord(stub);
    expect(record).toMatchObject({ status: "cancelled", statusMessage: "first" });
    expect((await storedEvents(stub)).filter((e) => e.type === "result")).toHaveLength(1);
  });

  it("reports an unknown task as not found", async ({ expect }) => {
    const { stub } = freshTask();
    expect(await stub.cancel()).toEqual({ ok: false, reason: "not_found" });
  });
});

describe("TaskObject.failDelivery (dead-letter path)", () => {
  it("fails a queued task with a clear statusMessage and a JSON-RPC error outcome", async ({ expect }) => {
    const { stub, input } = freshTask();
    await stub.create(input);
    await stub.failDelivery("The job could not be started: retries exhausted.");
    const snapshot = await stub.get();
    expect(snapshot?.task).toMatchObject({
      status: "failed",
      statusMessage: "The job could not be started: retries exhausted.",
    });
    expect(snapshot?.outcome).toEqual({
      kind: "error",
      error: { code: -32603, message: "The job could not be started: retries exhausted." },
    });
  });
});

describe("TTL", () => {
  it("the alarm deletes the task's storage once its ttl has passed", async ({ expect }) => {
    const { stub, input } = freshTask("countdown", { seconds: 1 }, { requestedTtlMs: 1000 });
    await stub.create(input);
    await stub.cancel();
    const record = await storedRecord(stub);
    expect(record?.ttlMs).toBe(1000);
    const alarm = await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) =>
      state.storage.getAlarm(),
    );
    expect(alarm).toBe(record?.expiresAt);
    await vi.waitFor(async () => {
      // Either the real alarm already fired, or we fire it now that the ttl has passed.
      if ((await storedRecord(stub)) !== undefined) {
        expect(Date.now()).toBeGreaterThanOrEqual(record?.expiresAt ?? Infinity);
        await runDurableObjectAlarm(stub);
      }
      expect(await storedRecord(stub)).toBeUndefined();
    }, settle);
    expect(await storedEvents(stub)).toEqual([]);
    expect(await stub.get()).toBeUndefined();
    expect(await stub.events(0)).toEqual([]);
  });

  it("an expired task is gone for lookups even before its alarm runs", async ({ expect }) => {
    const { stub, input } = freshTask("countdown", { seconds: 1 }, { requestedTtlMs: 1000 });
    await stub.create(input);
    await vi.waitFor(async () => expect(await stub.get()).toBeUndefined(), settle);
    expect(await stub.cancel()).toEqual({ ok: false, reason: "not_found" });
  });
});

describe("the feed", () => {
  it("replays a finished task's events in order and then ends", async ({ expect }) => {
    const { stub, input } = freshTask("countdown", { seconds: 1 });
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
    const feed = await openTaskFeed(stub, 0);
    const events: TaskEvent[] = [];
    for await (const event of feed ?? []) events.push(event);
    // countdown memoizes its start time in a step, so the log records that step once.
    expect(events.map((e) => e.type)).toEqual(["status", "status", "step", "progress", "status", "result"]);
    expect(events.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(events[2]?.data).toEqual({ name: "started" });
  });

  it("streams live events after the given sequence number until the result", async ({ expect }) => {
    const { stub, input } = freshTask("countdown", { seconds: 2 });
    const created = await stub.create(input);
    const feed = await openTaskFeed(stub, created.lastSeq);
    await stub.deliver();
    const types: string[] = [];
    for await (const event of feed ?? []) types.push(event.type);
    expect(types).toEqual(["status", "step", "progress", "progress", "status", "result"]);
  });
});

describe("the feed's forms", () => {
  const upgrade = (stub: DurableObjectStub<TaskObject>, query: string) =>
    stub.fetch(`https://task.internal/feed?${query}`, { headers: { Upgrade: "websocket" } });

  it("answers a finished task's feed with the replay as a plain body: no socket to set up", async ({ expect }) => {
    const { stub, input } = freshTask("countdown", { seconds: 1 });
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
    const response = await upgrade(stub, "after=2");
    expect(response.status).toBe(200);
    expect(response.webSocket).toBeNull();
    expect(decodeFeedMessage(await response.text()).map((e) => e.seq)).toEqual([3, 4, 5, 6]);
  });

  it("answers a request without Upgrade with the replay alone, even while the task runs (a reader joining its Worker's socket)", async ({
    expect,
  }) => {
    const { stub, input, taskId } = freshTask("countdown", { seconds: 60 });
    const created = await stub.create(input);
    const replay = (query: string) => stub.fetch(`https://task.internal/feed?${query}`);
    const response = await replay("after=0&strict=1&format=sse");
    expect(response.status).toBe(200);
    const chunk = decodeEventStreamChunk(await response.arrayBuffer());
    expect(chunk?.seqs).toEqual(Array.from({ length: created.lastSeq }, (_, i) => i + 1));
    expect(new TextDecoder().decode(chunk?.bytes)).toMatch(new RegExp(`^id: t\\.${taskId}\\.0\\.1\nevent: status\n`));
    expect(chunk?.final).toBe(false);
    expect((await replay(`after=${created.lastSeq + 1}&strict=1&format=sse`)).status).toBe(416);
    expect((await freshTask().stub.fetch("https://task.internal/feed?after=0&format=sse")).status).toBe(404);
    expect(
      await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) => state.getWebSockets().length),
    ).toBe(0);
    await stub.cancel();
  });

  it("sends the event-stream view framed once for all its readers, a step and its progress as one message", async ({
    expect,
  }) => {
    const { stub, input, taskId } = freshTask("batch_process", { items: 2, secondsPerItem: 0.2 });
    const created = await stub.create(input);
    const readers = await Promise.all(
      [0, 1, 2].map(async () => {
        const ws = (await upgrade(stub, `after=${created.lastSeq}&format=sse`)).webSocket;
        if (!ws) throw new Error("no socket");
        const messages: string[] = [];
        ws.binaryType = "arraybuffer";
        ws.addEventListener("message", (m) =>
          messages.push(new TextDecoder().decode(decodeEventStreamChunk(m.data as ArrayBuffer)?.bytes)),
        );
        const closed = new Promise<void>((resolve) => ws.addEventListener("close", () => resolve()));
        ws.accept();
        return { messages, closed };
      }),
    );
    await stub.deliver();
    await Promise.all(readers.map((r) => r.closed));
    const [first, ...others] = readers.map((r) => r.messages);
    for (const other of others) expect(other).toEqual(first);
    const item1 = first?.find((m) => m.includes(`"name":"item-1"`)) ?? "";
    expect(item1).toMatch(new RegExp(`^id: t\\.${taskId}\\.0\\.\\d+\nevent: step\n`));
    expect(item1).toContain('event: progress\ndata: {"progress":1,"total":2');
    expect(first?.at(-1)).toContain("event: result");
  });
});

describe("TaskObject.prepare and discard (the principal's id pool)", () => {
  const tables = (stub: DurableObjectStub<TaskObject>) =>
    runInDurableObject(
      stub,
      (_instance: TaskObject, state: DurableObjectState) =>
        state.storage.sql
          .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('task', 'events')")
          .toArray().length,
    );

  const jobTables = (stub: DurableObjectStub<TaskObject>) =>
    runInDurableObject(stub, (_instance: TaskObject, state: DurableObjectState) =>
      state.storage.sql
        .exec<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT IN ('task', 'events', 'adapter_state') AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
        )
        .toArray()
        .map((row) => row.name),
    );

  it("a lookup of an unknown id creates nothing; prepare makes the empty tables ahead, and still no task", async ({
    expect,
  }) => {
    const { stub } = freshTask();
    expect(await stub.get()).toBeUndefined();
    expect(await tables(stub)).toBe(0);
    await stub.prepare();
    expect(await tables(stub)).toBe(2);
    // A job's tables are made by their first write, not ahead: most tasks write two or three of them.
    expect(await jobTables(stub)).toEqual([]);
    // What an idle pooled object holds (billed as stored bytes): 20 KiB, against 64 KiB with the job's tables made ahead.
    expect(await stub.storageBytes()).toBeLessThanOrEqual(20 * 1024);
    expect(await stub.get()).toBeUndefined();
    expect(await stub.events(0)).toEqual([]);
    expect(await storedEvents(stub)).toEqual([]);
  });

  it("create after prepare stores the task as usual", async ({ expect }) => {
    const { stub, input } = freshTask();
    await stub.prepare();
    expect((await stub.create(input)).task).toMatchObject({ taskId: input.taskId, status: "working" });
    expect(await tables(stub)).toBe(2);
  });

  it("a job's table is made by its first write, on a prepared object", async ({ expect }) => {
    const { stub, input } = freshTask();
    await stub.prepare();
    await stub.create(input);
    const stored = await runInDurableObject(stub, (instance: TaskObject) => {
      const { memos } = TaskObjectRuntime.partsOf(instance).storage;
      return memos.put("steps", "item-1", 1, Date.now()) && memos.get("steps", "item-1");
    });
    expect(stored).toEqual({ value: 1 });
    expect(await jobTables(stub)).toEqual(["step_results"]);
  });

  it("discard empties an unused object, and a later create still stores the task", async ({ expect }) => {
    const { stub, input } = freshTask();
    await stub.prepare();
    expect(await stub.discard()).toBe(true);
    expect(await tables(stub)).toBe(0);
    const { task } = await stub.create(input);
    expect(task.status).toBe("working");
    expect((await stub.get())?.task.taskId).toBe(input.taskId);
    expect(await stub.discard()).toBe(false);
    expect((await storedEvents(stub)).map((e) => e.type)).toEqual(["status"]);
  });
});
