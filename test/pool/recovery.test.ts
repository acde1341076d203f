// Jobs that outlive their run: lease expiry, concurrent alarms, retries with backoff,
// permanent failures, durable sleep and cancelling a sleeping task (pool, real TaskObjects).
import { describe, it, vi } from "vitest";
import {
  createExecutionContext,
  createMessageBatch,
  evictDurableObject,
  getQueueResult,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "../../src/index";
import type { TaskEvent, TaskRecord } from "../../src/core";
import { TaskObjectRuntime } from "../../src/core/object/runtime";
import { CREATE } from "../../src/core/object/schema";
import type { TaskObject } from "../../src/index";
import { freshTask, hasActiveRun, storedRecord, type TaskStub } from "./support";
import { until } from "../until";

const settle = until(100);

/** Every stored event with its data, in order (read as plain JSON, to look inside it). */
type LoggedEvent = { type: TaskEvent["type"]; data: Record<string, unknown> };
function eventLog(stub: TaskStub): Promise<LoggedEvent[]> {
  return runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) =>
    state.storage.sql
      .exec<{ type: TaskEvent["type"]; data: string }>("SELECT type, data FROM events ORDER BY seq")
      .toArray()
      .map((row) => ({ type: row.type, data: JSON.parse(row.data) as Record<string, unknown> })),
  );
}

const ofType = (log: LoggedEvent[], type: TaskEvent["type"]) => log.filter((e) => e.type === type).map((e) => e.data);

/**
 * Rewrite the stored record (and optionally steps and events) as a crashed or sleeping run would have
 * left them, then evict the instance: the process that held it is gone, and the next one reads storage.
 */
async function rewrite(
  stub: TaskStub,
  change: (record: TaskRecord) => TaskRecord,
  sql: [string, ...unknown[]][] = [],
): Promise<void> {
  await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) => {
    const row = state.storage.sql.exec<{ record: string }>("SELECT record FROM task WHERE id = 1").one();
    state.storage.sql.exec(
      "UPDATE task SET record = ? WHERE id = 1",
      JSON.stringify(change(JSON.parse(row.record) as TaskRecord)),
    );
    for (const [statement, ...bindings] of sql) state.storage.sql.exec(statement, ...bindings);
  });
  await evictDurableObject(stub);
}

/**
 * Rewrite the stored record under the live instance, through its own storage, as a heartbeat that came
 * late would leave it: the run is still alive in this process, only its lease looks stale.
 */
function rewriteLive(stub: TaskStub, change: (record: TaskRecord) => TaskRecord): Promise<void> {
  return runInDurableObject(stub, (instance: TaskObject) => {
    const storage = TaskObjectRuntime.partsOf(instance).storage;
    const record = storage.load();
    if (record) storage.save(change(record));
  });
}

/** Make every remembered sleep (and the record's wake-up) due now, as if the wait had passed. */
const wakeUpNow = (stub: TaskStub) =>
  rewrite(stub, (r) => ({ ...r, run: { ...r.run, wakeAt: Date.now() - 1 } }), [
    [CREATE.sleeps],
    ["UPDATE sleeps SET value = ?", JSON.stringify(Date.now() - 1)],
  ]);

describe("lease expiry", () => {
  it("fails a task whose runs keep dying instead of restarting it again (JOB_MAX_ATTEMPTS runs in a row)", async ({
    expect,
  }) => {
    const { stub, input } = freshTask("countdown", { seconds: 1 });
    await stub.create(input);
    // Two runs already died with their process; the third has just gone stale too.
    await rewrite(stub, (r) => ({
      ...r,
      statusMessage: "Resuming after the previous run stopped responding.",
      run: {
        ...r.run,
        phase: "running",
        delivered: true,
        runs: 3,
        lostRuns: 2,
        leaseId: "dead-run",
        leaseUntil: Date.now() - 1,
      },
    }));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    const record = await storedRecord(stub);
    expect(record?.status).toBe("failed");
    expect(record?.run.runs).toBe(3);
    expect(record?.statusMessage).toMatch(/stopped responding 3 times in a row/);
    expect(await hasActiveRun(stub)).toBe(false);
    expect((await stub.get())?.outcome).toMatchObject({ kind: "result", result: { isError: true } });
  });

  it("restarts a run whose lease went stale, resuming after its last finished step", async ({ expect }) => {
    const { stub, input } = freshTask("batch_process", { items: 3, secondsPerItem: 0 });
    await stub.create(input);
    // A run that finished item 1, then died with its process: its lease is past, nothing holds it.
    const now = Date.now();
    await rewrite(
      stub,
      (r) => ({
        ...r,
        statusMessage: "Running.",
        progress: { progress: 1, total: 3 },
        run: { ...r.run, phase: "running", delivered: true, runs: 1, leaseId: "dead-run", leaseUntil: now - 1 },
      }),
      [
        [CREATE.steps],
        ["INSERT INTO step_results (key, value, at) VALUES ('item-1', '1', ?)", now],
        ["INSERT INTO events (type, data, at) VALUES ('step', ?, ?)", JSON.stringify({ name: "item-1" }), now],
        [
          "INSERT INTO events (type, data, at) VALUES ('progress', ?, ?)",
          JSON.stringify({ progress: 1, total: 3 }),
          now,
        ],
      ],
    );
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("completed"), settle);

    const record = await storedRecord(stub);
    expect(record?.run.runs).toBe(2);
    expect(record?.outcome).toMatchObject({
      kind: "result",
      result: { structuredContent: { items: 3, checksum: 14 } },
    });
    const log = await eventLog(stub);
    expect(ofType(log, "step").map((d) => d["name"])).toEqual(["item-1", "item-2", "item-3"]);
    expect(ofType(log, "progress").map((d) => d["progress"])).toEqual([1, 2, 3]);
    expect(ofType(log, "log").filter((d) => String(d["message"]).startsWith("Lease expired"))).toHaveLength(1);
    expect(ofType(log, "result")).toHaveLength(1);
  });

  it("resumes at once when a new instance finds a lease an earlier instance held, without waiting it out", async ({
    expect,
  }) => {
    const { stub, input } = freshTask("batch_process", { items: 2, secondsPerItem: 0 });
    await stub.create(input);
    // A run that died with its instance (a deploy, a crash) a moment ago: its lease runs ten more minutes.
    const leaseUntil = Date.now() + 600_000;
    await rewrite(stub, (r) => ({
      ...r,
      statusMessage: "Running.",
      run: { ...r.run, phase: "running", delivered: true, runs: 1, leaseId: "earlier-instance", leaseUntil },
    }));
    // The new instance's first request; then its alarm, which before the lease's end would only re-arm it.
    expect((await stub.get())?.task.status).toBe("working");
    await runDurableObjectAlarm(stub);
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("completed"), settle);
    expect((await storedRecord(stub))?.run.runs).toBe(2);
    const log = await eventLog(stub);
    expect(ofType(log, "log").filter((d) => String(d["message"]).startsWith("Lease expired"))).toHaveLength(1);
    expect(ofType(log, "result")).toHaveLength(1);
  });

  it("never starts a second run while the first is alive, even when an alarm finds its lease late", async ({
    expect,
  }) => {
    const { stub, input } = freshTask("countdown", { seconds: 3 });
    await stub.create(input);
    expect(await stub.deliver()).toBe("started");
    await vi.waitFor(async () => expect(await hasActiveRun(stub)).toBe(true), settle);
    const leaseId = (await storedRecord(stub))?.run.leaseId;

    // A duplicate delivery, an early alarm, and an alarm that sees the lease as expired
    // (a heartbeat that came late): none of them may start another run.
    expect(await stub.deliver()).toBe("duplicate");
    await runInDurableObject(stub, (instance: TaskObject) => instance.alarm());
    await rewriteLive(stub, (r) => ({ ...r, run: { ...r.run, leaseUntil: Date.now() - 1 } }));
    await runInDurableObject(stub, (instance: TaskObject) => instance.alarm());
    const renewed = await storedRecord(stub);
    expect(renewed?.run).toMatchObject({ phase: "running", runs: 1, leaseId });
    expect(renewed?.run.leaseUntil ?? 0).toBeGreaterThan(Date.now());

    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("completed"), settle);
    expect((await storedRecord(stub))?.run.runs).toBe(1);
    const log = await eventLog(stub);
    expect(ofType(log, "progress").map((d) => d["progress"])).toEqual([1, 2, 3]);
    expect(ofType(log, "result")).toHaveLength(1);
    expect(ofType(log, "status").filter((d) => d["status"] !== "working")).toHaveLength(1);
  });
});

describe("retries", () => {
  it("retries a thrown error with backoff, then fails with the tool's error as the result", async ({ expect }) => {
    const { stub, input } = freshTask("external_job", { durationSeconds: 1, simulate: "outage" });
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("failed"), settle);

    const record = await storedRecord(stub);
    expect(record?.run).toMatchObject({ runs: 3, failures: 3 });
    const result = {
      content: [{ type: "text", text: expect.stringMatching(/HTTP 503.*gave up after 3 attempts/) }],
      isError: true,
    };
    // Exactly what tasks/result will return, and the `result` event.
    expect(record?.outcome).toEqual({ kind: "result", result });
    const log = await eventLog(stub);
    expect(ofType(log, "result")).toEqual([result]);
    expect(ofType(log, "log").map((d) => d["message"])).toEqual([
      expect.stringMatching(/^Attempt 1 failed/),
      expect.stringMatching(/^Attempt 2 failed/),
    ]);
    expect(
      ofType(log, "status").some((d) => /^Attempt 1 failed: .* Retrying at /.test(String(d["statusMessage"]))),
    ).toBe(true);
    // The submission is a memoized step: retried runs did not submit again.
    expect(ofType(log, "step").map((d) => d["name"])).toEqual(["submit"]);
  });

  it("fails at once, without retrying, when the tool throws a PermanentError", async ({ expect }) => {
    const { stub, input } = freshTask("external_job", { durationSeconds: 2, pollSeconds: 1, simulate: "reject" });
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("failed"), settle);
    const record = await storedRecord(stub);
    expect(record?.run).toMatchObject({ runs: 1, failures: 1 });
    expect(record?.outcome).toEqual({
      kind: "result",
      result: { content: [{ type: "text", text: expect.stringContaining("rejected") }], isError: true },
    });
    expect(ofType(await eventLog(stub), "log")).toEqual([]);
  });

  it("succeeds on a retry after a transient error", async ({ expect }) => {
    const { stub, input } = freshTask("external_job", { durationSeconds: 1, pollSeconds: 1, simulate: "flaky" });
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("completed"), settle);
    expect((await storedRecord(stub))?.run).toMatchObject({ runs: 2, failures: 1 });
  });
});

describe("the dead-letter path", () => {
  it("fails a task that is waiting to retry, with a JSON-RPC error, and it never runs again", async ({ expect }) => {
    const { stub, input, principal, taskId } = freshTask("external_job", { durationSeconds: 1, simulate: "outage" });
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => {
      if ((await storedRecord(stub))?.run.phase !== "backoff") throw new Error("not in backoff yet");
    }, settle);

    const batch = createMessageBatch("mcp-task-jobs-dlq", [
      { id: "m1", timestamp: new Date(), attempts: 11, body: { v: 1, principal, taskId, queue: "job" } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue(batch, env);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual(["m1"]);
    // A retry may have started just before the dead letter arrived; none may start after it.
    const runs = (await storedRecord(stub))?.run.runs;

    await rewrite(stub, (r) => ({ ...r, run: { ...r.run, wakeAt: Date.now() - 1 } }));
    await runInDurableObject(stub, (instance: TaskObject) => instance.alarm());
    const record = await storedRecord(stub);
    expect(record).toMatchObject({ status: "failed", run: { phase: "done", runs } });
    expect(record?.outcome).toMatchObject({
      kind: "error",
      error: { code: -32603, message: expect.stringContaining("delivery retries") },
    });
    expect(ofType(await eventLog(stub), "result")).toEqual([
      { error: { code: -32603, message: expect.stringContaining("delivery retries") } },
    ]);
  });
});

describe("durable sleep", () => {
  async function sleepingBatch() {
    const task = freshTask("batch_process", { items: 2, secondsPerItem: 40 });
    await task.stub.create(task.input);
    await task.stub.deliver();
    await vi.waitFor(async () => {
      if ((await storedRecord(task.stub))?.run.phase !== "sleeping") throw new Error("not sleeping yet");
    }, settle);
    return task;
  }

  it("keeps a sleeping task working, says what it waits for, and holds no run", async ({ expect }) => {
    const { stub } = await sleepingBatch();
    const record = await storedRecord(stub);
    expect(record?.status).toBe("working");
    expect(record?.statusMessage).toMatch(/^Waiting until \d{4}-\d\d-\d\dT[\d:.]+Z: processing item 1 of 2\.$/);
    expect(await hasActiveRun(stub)).toBe(false);
    const alarm = await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) =>
      state.storage.getAlarm(),
    );
    expect(alarm).toBe(record?.run.wakeAt);
    expect(record?.run.wakeAt ?? 0).toBeGreaterThan(Date.now() + 30_000);
  });

  it("wakes from its alarm and resumes through its memoized steps", async ({ expect }) => {
    const { stub } = await sleepingBatch();
    await wakeUpNow(stub);
    await runDurableObjectAlarm(stub);
    await vi.waitFor(
      async () => expect((await storedRecord(stub))?.statusMessage).toMatch(/processing item 2 of 2\.$/),
      settle,
    );
    await wakeUpNow(stub);
    await runDurableObjectAlarm(stub);
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("completed"), settle);
    expect((await storedRecord(stub))?.run.runs).toBe(3);
    expect(ofType(await eventLog(stub), "step").map((d) => d["name"])).toEqual(["item-1", "item-2"]);
  });

  it("is never run again once cancelled", async ({ expect }) => {
    const { stub } = await sleepingBatch();
    expect(await stub.cancel()).toMatchObject({ ok: true });
    await wakeUpNow(stub);
    await runDurableObjectAlarm(stub);
    await runInDurableObject(stub, (instance: TaskObject) => instance.alarm());
    const record = await storedRecord(stub);
    expect(record).toMatchObject({ status: "cancelled", run: { phase: "done", runs: 1 } });
    expect(await hasActiveRun(stub)).toBe(false);
    const log = await eventLog(stub);
    expect(ofType(log, "step")).toEqual([]);
    expect(ofType(log, "progress")).toEqual([]);
  });
});
