// Fan-out in the Workers runtime: the step queue's consumer against real TaskObjects. Most tests
// seed a waiting fan-out (no message sent) and drive the consumer with hand-made batches, so they
// decide what is delivered, when and how often; the first goes through the real local queue.
import { describe, it, vi } from "vitest";
import { z } from "zod";
import {
  createExecutionContext,
  createMessageBatch,
  evictDurableObject,
  getQueueResult,
  runDurableObjectAlarm,
  runInDurableObject,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { FanOutStatus, TaskRecord } from "../../src/core";
import { TaskObjectRuntime } from "../../src/core/object/runtime";
import { PermanentError } from "../../src/jobs/context";
import { stepBatchHandler, type FindStep } from "../../src/jobs/fan-out-consumer";

const STEP_QUEUE = "mcp-task-steps";
const STEP_DEAD_LETTER_QUEUE = "mcp-task-steps-dlq";
import { defineStep, type Step } from "../../src/jobs/steps";
import { fanOutName } from "../../src/jobs/durable-names";
import type { TaskObject } from "../../src/index";
import { freshTask, storedRecord, type TaskStub } from "./support";
import { until } from "../until";

const settle = until(100);
const itemInputs = (items: number) => Array.from({ length: items }, (_, i) => ({ item: i + 1, seconds: 0, items }));
/** The name batch_process's fan-out of `items` items gets (src/jobs/durable-names.ts). */
const keyOf = (items: number) => fanOutName("processItem", itemInputs(items));
/** The fan-out of the task the latest waitingTask made: the tests run one at a time. */
let KEY = keyOf(1);

/** A batch_process task whose run has fanned out `items` items and now waits; no message is sent. */
async function waitingTask(items: number, options: { settle?: boolean } = {}) {
  const task = freshTask("batch_process", { items, secondsPerItem: 0, parallel: true });
  KEY = keyOf(items);
  await task.stub.create(task.input);
  await runInDurableObject(task.stub, async (instance: TaskObject, state: DurableObjectState) => {
    const fanOuts = TaskObjectRuntime.partsOf(instance).fanOuts;
    fanOuts.start(
      {
        key: KEY,
        step: "processItem",
        inputs: itemInputs(items).map((i) => JSON.stringify(i)),
        settle: options.settle === true,
        progress: true,
      },
      0,
    );
    const row = state.storage.sql.exec<{ record: string }>("SELECT record FROM task WHERE id = 1").one();
    const record = JSON.parse(row.record) as TaskRecord;
    const wakeAt = Date.now() + 3_600_000;
    const waiting: TaskRecord = {
      ...record,
      statusMessage: `0 of ${items} items done.`,
      run: { ...record.run, phase: "sleeping", awaiting: "fan-out", runs: 1, delivered: true, wakeAt },
    };
    state.storage.sql.exec("UPDATE task SET record = ? WHERE id = 1", JSON.stringify(waiting));
    await state.storage.setAlarm(wakeAt);
  });
  // As if the process that left the task waiting had gone: the next instance reads it from storage.
  await evictDurableObject(task.stub);
  return task;
}

function fanOutStatus(stub: TaskStub): Promise<FanOutStatus | undefined> {
  return runInDurableObject(stub, (instance: TaskObject) => TaskObjectRuntime.partsOf(instance).fanOuts.status(KEY));
}

function eventsOf(stub: TaskStub, type: string): Promise<Record<string, unknown>[]> {
  return runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) =>
    state.storage.sql
      .exec<{ data: string }>("SELECT data FROM events WHERE type = ? ORDER BY seq", type)
      .toArray()
      .map((r) => JSON.parse(r.data) as Record<string, unknown>),
  );
}

const stepNames = async (stub: TaskStub) => (await eventsOf(stub, "step")).map((e) => e["name"]);

let nextId = 0;
function message(principal: string, taskId: string, index: number, attempts = 1, fanOut = KEY) {
  return { id: `m-${++nextId}`, timestamp: new Date(), attempts, body: { v: 1, principal, taskId, fanOut, index } };
}

/** A step that counts its runs and does what `behave` says with each input. */
function countingStep(
  behave: (item: number, ctx: { signal: AbortSignal; attempt: number }) => Promise<number> | number = (item) =>
    item * item,
) {
  const runs: number[] = [];
  const step: Step<{ item: number }, number> = defineStep({
    input: z.object({ item: z.number(), seconds: z.number() }),
    run: ({ item }, ctx) => {
      runs.push(item);
      return behave(item, ctx);
    },
  });
  const find: FindStep = (tool, name) => (tool === "batch_process" && name === "processItem" ? step : undefined);
  return { runs, find };
}

async function consume(find: FindStep, messages: ReturnType<typeof message>[], queue = STEP_QUEUE) {
  const batch = createMessageBatch(queue, messages);
  const ctx = createExecutionContext();
  await stepBatchHandler(find)(batch, env);
  return getQueueResult(batch, ctx);
}

/** The consumer on plain message objects, recording the delay each retry asked for (getQueueResult drops it). */
async function retryDelays(
  find: FindStep,
  messages: ReturnType<typeof message>[],
): Promise<Record<string, number | undefined>> {
  const delays: Record<string, number | undefined> = {};
  const batch = {
    queue: STEP_QUEUE,
    messages: messages.map((m) => ({
      ...m,
      ack() {},
      retry: (options?: QueueRetryOptions) => void (delays[m.id] = options?.delaySeconds),
    })),
    ackAll() {},
    retryAll() {},
  } as unknown as MessageBatch<unknown>;
  await stepBatchHandler(find)(batch, env);
  return delays;
}

const ids = (messages: { id: string }[]) => messages.map((m) => m.id).sort();
const sorted = (acks: string[]) => [...acks].sort();

describe("a parallel batch_process", () => {
  it("completes through the real step queue with the sequential result, one step event per item", async ({
    expect,
  }) => {
    const { stub, input } = freshTask("batch_process", { items: 12, secondsPerItem: 0, parallel: true });
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
    expect((await stub.get())?.outcome).toEqual({
      kind: "result",
      result: {
        content: [{ type: "text", text: "Processed 12 items." }],
        structuredContent: { summary: "Processed 12 items.", items: 12, checksum: 650 },
      },
    });
    expect((await stepNames(stub)).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `processItem[${i}]`).sort());
    expect((await eventsOf(stub, "progress")).map((p) => p["progress"])).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
    // The job ran twice: once to fan out, once, woken by the last result, to return.
    expect((await storedRecord(stub))?.run.runs).toBe(2);
  });
});

describe("the step consumer", () => {
  it("runs a duplicated message once, in the same batch and after it finished", async ({ expect }) => {
    const { stub, principal, taskId } = await waitingTask(2);
    const step = countingStep();
    const first = [message(principal, taskId, 0), message(principal, taskId, 0)];
    expect(sorted((await consume(step.find, first)).explicitAcks)).toEqual(ids(first));
    const late = message(principal, taskId, 0, 2);
    expect((await consume(step.find, [late])).explicitAcks).toEqual([late.id]);
    expect(step.runs).toEqual([1]);
    expect(await stepNames(stub)).toEqual(["processItem[0]"]);
    expect((await storedRecord(stub))?.run.awaiting).toBe("fan-out");
  });

  it("keeps results in input order whatever order they arrive in, and wakes the job at the last", async ({
    expect,
  }) => {
    const { stub, principal, taskId } = await waitingTask(3);
    const step = countingStep();
    for (const index of [2, 0, 1]) await consume(step.find, [message(principal, taskId, index)]);
    expect(await stepNames(stub)).toEqual(["processItem[2]", "processItem[0]", "processItem[1]"]);
    const status = await fanOutStatus(stub);
    expect(status?.state === "finished" && status.items.map((i) => i.value)).toEqual(["1", "4", "9"]);
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
    expect((await stub.get())?.outcome).toMatchObject({ result: { structuredContent: { items: 3, checksum: 14 } } });
  });

  it("acknowledges without running the items of a cancelled task, and ignores a late result", async ({ expect }) => {
    const { stub, principal, taskId } = await waitingTask(2);
    await stub.cancel();
    const step = countingStep();
    const msg = message(principal, taskId, 0);
    expect((await consume(step.find, [msg])).explicitAcks).toEqual([msg.id]);
    expect(step.runs).toEqual([]);
    expect(await stub.stepDone(KEY, 1, "1")).toBe("gone");
    expect(await stepNames(stub)).toEqual([]);
    expect((await stub.get())?.task.status).toBe("cancelled");
  });

  it("aborts a running item's signal when its task is cancelled, and stores nothing", async ({ expect }) => {
    const { stub, principal, taskId } = await waitingTask(1);
    let started = false;
    const step = countingStep(
      (_item, { signal }) =>
        new Promise<number>((_resolve, reject) => {
          started = true;
          signal.addEventListener("abort", () => reject(signal.reason));
        }),
    );
    const msg = message(principal, taskId, 0);
    const consumed = consume(step.find, [msg]);
    await vi.waitFor(() => expect(started).toBe(true), settle);
    await stub.cancel();
    // The heartbeat (once a second) learns of the cancel and aborts the item; the batch then ends.
    expect((await consumed).explicitAcks).toEqual([msg.id]);
    expect(await stepNames(stub)).toEqual([]);
  });

  it("acknowledges messages for an expired task, an unknown task and an unknown fan-out", async ({ expect }) => {
    const expired = freshTask("batch_process", { items: 1, secondsPerItem: 0, parallel: true }, { requestedTtlMs: 1 });
    await expired.stub.create(expired.input);
    const unknown = freshTask();
    const { principal, taskId } = await waitingTask(1);
    const step = countingStep();
    const messages = [
      message(expired.principal, expired.taskId, 0),
      message(unknown.principal, unknown.taskId, 0),
      message(principal, taskId, 0, 1, "fanout:elsewhere#1"),
    ];
    await vi.waitFor(async () => expect(await expired.stub.get()).toBeUndefined(), settle);
    const result = await consume(step.find, messages);
    expect(sorted(result.explicitAcks)).toEqual(ids(messages));
    expect(step.runs).toEqual([]);
    expect(await expired.stub.stepDone(KEY, 0, "1")).toBe("gone");
    expect(await unknown.stub.stepDone(KEY, 0, "1")).toBe("gone");
  });

  it("holds malformed messages to the one rule for unreadable ones: retried, never run (src/queues/unreadable.ts)", async ({
    expect,
  }) => {
    const step = countingStep();
    const bad: { id: string; timestamp: Date; attempts: number; body: unknown }[] = [
      { id: "bad-1", timestamp: new Date(), attempts: 1, body: "nope" },
      {
        id: "bad-2",
        timestamp: new Date(),
        attempts: 1,
        body: { v: 1, principal: "p", taskId: "x", fanOut: KEY, index: 0 },
      },
      {
        id: "bad-3",
        timestamp: new Date(),
        attempts: 1,
        body: { v: 1, principal: "p", taskId: "a".repeat(32), fanOut: KEY, index: -1 },
      },
    ];
    const batch = createMessageBatch(STEP_QUEUE, bad);
    await stepBatchHandler(step.find)(batch, env);
    const result = await getQueueResult(batch, createExecutionContext());
    expect(result.explicitAcks).toEqual([]);
    expect(sorted(result.retryMessages.map((m) => m.msgId))).toEqual(["bad-1", "bad-2", "bad-3"]);
    expect(step.runs).toEqual([]);
  });

  it("retries a throwing item with the backoff its task asks for, then fails the job naming the item", async ({
    expect,
  }) => {
    const { stub, principal, taskId } = await waitingTask(2);
    const step = countingStep((item) => {
      if (item === 2) throw new Error("HTTP 503 from the image service");
      return item * item;
    });
    await consume(step.find, [message(principal, taskId, 0)]);
    // JOB_RETRY_BASE_SECONDS is 1 in the pool: 1 s, then 2 s; the third failure is final (JOB_MAX_ATTEMPTS 3).
    expect(await retryDelays(step.find, [message(principal, taskId, 1, 1)])).toEqual({ [`m-${nextId}`]: 1 });
    expect(await retryDelays(step.find, [message(principal, taskId, 1, 2)])).toEqual({ [`m-${nextId}`]: 2 });
    const last = message(principal, taskId, 1, 3);
    expect((await consume(step.find, [last])).explicitAcks).toEqual([last.id]);
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("failed"), settle);
    expect((await stub.get())?.task.statusMessage).toBe(
      'processItem[1] (input {"item":2,"seconds":0,"items":2}) failed: HTTP 503 from the image service (gave up after 3 attempts)',
    );
    const logs = (await eventsOf(stub, "log")).map((l) => l["message"]);
    expect(logs.filter((m) => String(m).includes("attempt failed"))).toHaveLength(2);
  });

  it("fails the job at once on a PermanentError, and skips the items it abandoned", async ({ expect }) => {
    const { stub, principal, taskId } = await waitingTask(3);
    const step = countingStep((item) => {
      if (item === 1) throw new PermanentError("item 1 is corrupt");
      return item;
    });
    await consume(step.find, [message(principal, taskId, 0)]);
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("failed"), settle);
    expect((await stub.get())?.task.statusMessage).toMatch(
      /^processItem\[0\] \(input \{"item":1,"seconds":0,"items":3\}\) failed: item 1 is corrupt$/,
    );
    await consume(step.find, [message(principal, taskId, 1), message(principal, taskId, 2)]);
    expect(step.runs).toEqual([1]);
  });

  it("with settle, keeps running the other items after a failure and wakes the job once all are in", async ({
    expect,
  }) => {
    const { stub, principal, taskId } = await waitingTask(3, { settle: true });
    const step = countingStep((item) => {
      if (item === 1) throw new PermanentError("item 1 is corrupt");
      return item * 10;
    });
    await consume(step.find, [message(principal, taskId, 0), message(principal, taskId, 1)]);
    expect((await storedRecord(stub))?.run.awaiting).toBe("fan-out");
    await consume(step.find, [message(principal, taskId, 2)]);
    expect(step.runs.sort()).toEqual([1, 2, 3]);
    const status = await fanOutStatus(stub);
    expect(status?.state === "finished" && status.items.map((i) => [i.state, i.value ?? i.error])).toEqual([
      ["failed", "item 1 is corrupt"],
      ["done", "20"],
      ["done", "30"],
    ]);
    expect((await storedRecord(stub))?.run.awaiting).toBeUndefined();
  });

  it("fails the item an exhausted message reaches the dead-letter queue for, and the job with it", async ({
    expect,
  }) => {
    const { stub, principal, taskId } = await waitingTask(2);
    const msg = message(principal, taskId, 1, 11);
    expect((await consume(countingStep().find, [msg], STEP_DEAD_LETTER_QUEUE)).explicitAcks).toEqual([msg.id]);
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("failed"), settle);
    expect((await stub.get())?.task.statusMessage).toMatch(
      /processItem\[1\].*the queue gave up delivering it after 11 attempts/,
    );
  });
});

describe("redelivery from the TaskObject's alarm", () => {
  it("sends the items of a waiting job again once nothing was heard of them, and each completes once", async ({
    expect,
  }) => {
    const { stub } = await waitingTask(3);
    // Item 0 was claimed by a consumer that then died (it holds a lease of LEASE_MS = 3 s); the
    // others' messages were lost before anyone claimed them (due at once: never sent).
    expect((await stub.claimSteps(KEY, [0])).kind).toBe("claimed");
    // The alarm sends the due items through the real step queue; the dead consumer's item follows once its lease has passed.
    await vi.waitFor(async () => {
      await runInDurableObject(stub, async (_i: TaskObject, state: DurableObjectState) =>
        state.storage.setAlarm(Date.now()),
      );
      await runDurableObjectAlarm(stub);
      expect((await stub.get())?.task.status).toBe("completed");
    }, until(500));
    expect((await stepNames(stub)).sort()).toEqual(["processItem[0]", "processItem[1]", "processItem[2]"]);
    const log = (await eventsOf(stub, "step")).length;
    expect(log).toBe(3);
  });

  it("tells a heartbeat to stop an item that finished elsewhere", async ({ expect }) => {
    const { stub } = await waitingTask(2);
    await stub.claimSteps(KEY, [0, 1]);
    expect(await stub.stepDone(KEY, 0, "1")).toBe("stored");
    expect(await stub.stepDone(KEY, 0, "1")).toBe("ignored");
    expect(await stub.stepHeartbeat(KEY, [0, 1])).toEqual([0]);
    await stub.cancel();
    expect(await stub.stepHeartbeat(KEY, [1])).toEqual([1]);
  });
});

describe("an item's partial output", () => {
  /** processItem as a step that publishes `count` times, one piece a call, then returns its item. */
  function publishing(count: number): FindStep {
    const step = defineStep({
      input: z.object({ item: z.number(), seconds: z.number() }),
      run: async ({ item }, ctx) => {
        for (let n = 1; n <= count; n++) await ctx.publish(`item ${item}, piece ${n}`);
        return item;
      },
    });
    return (tool, name) => (tool === "batch_process" && name === "processItem" ? step : undefined);
  }
  const pieceTexts = async (stub: TaskStub) =>
    ((await stub.get({ piecesAfter: 0 }))?.pieces ?? []).map((p) => (p.content.type === "text" ? p.content.text : ""));

  it("records each of an item's publishes, past 100 of them: 150 calls, 150 pieces", async ({ expect }) => {
    const { stub, principal, taskId } = await waitingTask(1);
    await consume(publishing(150), [message(principal, taskId, 0)]);
    const texts = await pieceTexts(stub);
    expect(texts).toHaveLength(150);
    expect(texts.at(-1)).toBe("item 1, piece 150");
  });

  it("fails the item at the call that would pass 1000 pieces, and records none of them", async ({ expect }) => {
    const { stub, principal, taskId } = await waitingTask(1);
    await consume(publishing(1001), [message(principal, taskId, 0)]);
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("failed"), settle);
    expect((await stub.get())?.task.statusMessage).toMatch(/at most 1000 pieces in all/);
    expect(await pieceTexts(stub)).toEqual([]);
  });

  it("records an item's pieces only with the result the task keeps: a failed item's late result records nothing", async ({
    expect,
  }) => {
    const { stub } = await waitingTask(3, { settle: true });
    // The queue gave up on item 0; a consumer that was still running it finishes later.
    await stub.stepUndeliverable(KEY, 0, "the queue gave up delivering it after 11 attempts");
    expect(await stub.stepDone(KEY, 0, "1", [[{ type: "text", text: "late run" }]])).toBe("ignored");
    expect(await stub.stepDone(KEY, 1, "4", [[{ type: "text", text: "kept" }]])).toBe("stored");
    expect(await stub.stepDone(KEY, 1, "4", [[{ type: "text", text: "repeat" }]])).toBe("ignored");
    // A consumer of release 0.1, mid-deploy, sends one flat list: recorded as one publish.
    expect(await stub.stepDone(KEY, 2, "9", ["a", { type: "text", text: "b" }])).toBe("stored");
    expect(await pieceTexts(stub)).toEqual(["kept", "a", "b"]);
  });
});
