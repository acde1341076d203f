// A job started by the call that creates its task (src/core/object/launch.ts): a plain call's first
// moments held in memory, a longer job written before the call answers, the queue message that only
// records the dispatch. The pool holds tasks for DISPATCH_GRACE_MS (60 s), so no alarm or queue
// delivery starts these jobs: only create() can.
import { describe, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext, createMessageBatch, getQueueResult, runInDurableObject } from "cloudflare:test";
import { readSettings } from "../../src/config";
import { TaskGateway } from "../../src/core";
import { gatewayBindings } from "../../src/principals/principal-indexes";
import worker from "../../src/index";
import type { TaskObject } from "../../src/index";
import { freshTask, storedEvents, storedRecord, type TaskStub } from "./support";
import { until } from "../until";

const settle = until(100);

const alarmOf = (stub: TaskStub) =>
  runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) => state.storage.getAlarm());

describe("a job started by its task's creation", () => {
  it("that ends in its first moments answers with its result and log, and its task is then stored with that same log, run once", async ({
    expect,
  }) => {
    const { stub, input } = freshTask("batch_process", { items: 2, secondsPerItem: 0 });
    const created = await stub.create(input, { run: { waitMs: 5000 } });
    expect(created.task.status).toBe("working");
    expect(created.ended?.snapshot.task.status).toBe("completed");
    expect(created.ended?.snapshot.outcome).toMatchObject({
      kind: "result",
      result: { content: [{ type: "text", text: "Processed 2 items." }] },
    });
    const answered = (created.ended?.events ?? []).map((e) => [e.seq, e.type]);
    // Each item's piece of partial output (docs/partial-results.md) is held with the rest and stored with it.
    expect(answered.map(([, type]) => type)).toEqual([
      "status",
      "status",
      "step",
      "partial",
      "progress",
      "step",
      "partial",
      "progress",
      "status",
      "result",
    ]);
    // Any later call finds it written, with the log the call was answered with.
    expect((await stub.events(0)).map((e) => [e.seq, e.type])).toEqual(answered);
    expect((await storedEvents(stub)).map((e) => [e.seq, e.type])).toEqual(answered);
    expect((await storedRecord(stub))?.run).toMatchObject({ phase: "done", runs: 1 });
    expect(await alarmOf(stub)).toBe((await storedRecord(stub))?.expiresAt);
  });

  it("that outlives its first moments is written before the call answers, running under a lease that its alarm guards", async ({
    expect,
  }) => {
    const { stub, input } = freshTask("countdown", { seconds: 2 });
    const created = await stub.create(input, { run: { waitMs: 30 } });
    expect(created.ended).toBeUndefined();
    // Read straight from SQLite, not through the object: already there as the call returns.
    const record = await storedRecord(stub);
    expect(record?.run).toMatchObject({ phase: "running", runs: 1 });
    expect(record?.run.leaseUntil).toBeGreaterThan(Date.now());
    expect(await alarmOf(stub)).toBe(record?.run.leaseUntil);
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
    expect((await storedRecord(stub))?.run.runs).toBe(1);
  });

  it("that nobody waits for (a task-augmented call) starts just after the answer, without its alarm or queue message", async ({
    expect,
  }) => {
    const { stub, input } = freshTask("countdown", { seconds: 1 });
    const created = await stub.create(input, { run: { waitMs: 0 } });
    expect(created.ended).toBeUndefined();
    expect(created.task.statusMessage).toBe("Queued.");
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
    expect((await storedRecord(stub))?.run).toMatchObject({ runs: 1, delivered: true });
  });

  it("keeps the adapters' state given with the task, open from its first event", async ({ expect }) => {
    const { stub, input } = freshTask("batch_process", { items: 1, secondsPerItem: 0 });
    await stub.create(input, {
      run: { waitMs: 5000 },
      state: [{ kind: "test/stream", key: "1", value: { requestId: 7 } }],
    });
    expect(await stub.lookupState("test/stream", "1")).toEqual({ requestId: 7 });
  });
});

describe("the job's queue message once its run has started", () => {
  it("is acknowledged without handing the job to its object", async ({ expect }) => {
    const { stub, input, principal, taskId } = freshTask("countdown", { seconds: 1 });
    await stub.create(input);
    const msg = {
      id: crypto.randomUUID(),
      timestamp: new Date(),
      attempts: 1,
      body: { v: 1, principal, taskId, started: true, queue: "job" },
    };
    const batch = createMessageBatch("mcp-task-jobs", [msg]);
    await worker.queue(batch, env);
    expect((await getQueueResult(batch, createExecutionContext())).explicitAcks).toEqual([msg.id]);
    // A hand-over would have marked it delivered and started it.
    expect((await storedRecord(stub))?.run).toMatchObject({ phase: "queued", delivered: false, runs: 0 });
  });

  it("is sent, marked started, for a plain call's job that goes on, and not at all for one that ended inside the call", async ({
    expect,
  }) => {
    const principal = `p-${crypto.randomUUID()}`;
    const bodies: unknown[] = [];
    const jobs = env.JOBS;
    const JOBS: Queue = {
      metrics: () => jobs.metrics(),
      send: (message, options) => jobs.send(message, options),
      sendBatch: (messages, options) => {
        const list = [...messages];
        bodies.push(...list.map((m) => m.body));
        return jobs.sendBatch(list, options);
      },
    };
    // No waitUntil: each creation returns once its message (if any) has left.
    const gateway = new TaskGateway(
      gatewayBindings({ ...env, JOBS }),
      { ...readSettings(env), dispatchGraceMs: 0 },
      principal,
    );
    const quick = await gateway.create({ tool: "batch_process", args: { items: 1, secondsPerItem: 0 }, wait: true });
    expect((await gateway.get(quick.ok ? quick.snapshot.task.taskId : ""))?.task.status).toBe("completed");
    const slow = await gateway.create({ tool: "countdown", args: { seconds: 2 }, wait: true });
    const slowId = slow.ok ? slow.snapshot.task.taskId : "";
    // Tagged for the job consumer by the queue port's adapter (src/queues/task-queues.ts).
    expect(bodies).toEqual([{ v: 1, principal, taskId: slowId, started: true, queue: "job" }]);
    await gateway.cancel(slowId);
  });
});
