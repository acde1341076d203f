import { describe, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import worker from "../../src/index";
import { deliveryRetryDelaySeconds } from "../../src/jobs/queue-consumer";
import { freshTask, storedRecord } from "./support";
import { until } from "../until";

const JOBS = "mcp-task-jobs";
const DLQ = "mcp-task-jobs-dlq";
const settle = until(100);

/** A message on the job queue: an object body carries the job consumer's tag, as taskQueues sends it (src/queues). */
function message(body: unknown, attempts = 1) {
  const tagged = typeof body === "object" && body !== null ? { ...body, queue: "job" } : body;
  return { id: crypto.randomUUID(), timestamp: new Date(), attempts, body: tagged };
}

async function consume(queue: string, messages: ReturnType<typeof message>[], bindings: Env = env) {
  const batch = createMessageBatch(queue, messages);
  const ctx = createExecutionContext();
  await worker.queue(batch, bindings);
  return getQueueResult(batch, ctx);
}

/** An Env whose TaskObjects refuse every hand-over, as an overloaded or restarting object would. */
function failingEnv(): Env {
  const refusing = {
    deliver: () => Promise.reject(new Error("object overloaded")),
    failDelivery: () => Promise.reject(new Error("object overloaded")),
  };
  return { ...env, TASKS: { ...env.TASKS, getByName: () => refusing } } as unknown as Env;
}

describe("queue consumer", () => {
  it("hands each job to its TaskObject and acks it; the job then runs from the object's alarm", async ({ expect }) => {
    const { stub, input, principal, taskId } = freshTask("countdown", { seconds: 1 });
    await stub.create(input);
    const msg = message({ v: 1, principal, taskId });
    const result = await consume(JOBS, [msg]);
    expect(result.explicitAcks).toEqual([msg.id]);
    expect(result.retryMessages).toEqual([]);
    expect((await storedRecord(stub))?.run.delivered).toBe(true);
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
  });

  it("ends the batch without waiting for its jobs, and starts all of them", async ({ expect }) => {
    const tasks = [
      freshTask("countdown", { seconds: 600 }),
      freshTask("countdown", { seconds: 600 }),
      freshTask("countdown", { seconds: 600 }),
    ];
    for (const t of tasks) await t.stub.create(t.input);
    const messages = tasks.map((t) => message({ v: 1, principal: t.principal, taskId: t.taskId }));
    const result = await consume(JOBS, messages);
    expect(result.explicitAcks.sort()).toEqual(messages.map((m) => m.id).sort());
    // The batch is over while 600 s jobs are still running: they run in their objects, not here.
    for (const t of tasks) {
      await vi.waitFor(async () => expect((await storedRecord(t.stub))?.run.phase).toBe("running"), settle);
      expect((await t.stub.get())?.task.status).toBe("working");
      await t.stub.cancel();
    }
  });

  it("acks a redelivered message without running the job twice", async ({ expect }) => {
    const { stub, input, principal, taskId } = freshTask("countdown", { seconds: 1 });
    await stub.create(input);
    const body = { v: 1, principal, taskId };
    await consume(JOBS, [message(body)]);
    const again = message(body, 2);
    expect((await consume(JOBS, [again])).explicitAcks).toEqual([again.id]);
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
    const late = message(body, 3);
    expect((await consume(JOBS, [late])).explicitAcks).toEqual([late.id]);
    expect((await storedRecord(stub))?.run.runs).toBe(1);
  });

  it("acks a message for a task that no longer exists", async ({ expect }) => {
    const { principal, taskId } = freshTask();
    const msg = message({ v: 1, principal, taskId });
    expect((await consume(JOBS, [msg])).explicitAcks).toEqual([msg.id]);
  });

  it("retries malformed job messages and bodies naming no consumer alike: one rule (src/queues/unreadable.ts)", async ({
    expect,
  }) => {
    const bad = [
      message({ v: 2, principal: "p", taskId: "a".repeat(32) }),
      message({ v: 1, principal: "p", taskId: "../../etc" }),
    ];
    const untagged = [message("not an object"), message(null)];
    const result = await consume(JOBS, [...bad, ...untagged]);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages.map((m) => m.msgId).sort()).toEqual([...bad, ...untagged].map((m) => m.id).sort());
  });

  it("retries a failed hand-over with exponential backoff", async ({ expect }) => {
    const { principal, taskId } = freshTask();
    const first = message({ v: 1, principal, taskId }, 1);
    const third = message({ v: 1, principal, taskId }, 3);
    const result = await consume(JOBS, [first, third], failingEnv());
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages.map((m) => m.msgId).sort()).toEqual([first.id, third.id].sort());
    // getQueueResult does not report delays, so watch the retry options on a hand-made batch too.
    const delays = await retryDelays([first, third], failingEnv());
    expect(delays).toEqual({ [first.id]: 1, [third.id]: 4 });
    expect(deliveryRetryDelaySeconds(20)).toBe(300);
  });
});

/** Runs the consumer on plain message objects and records the delay each retry asked for (getQueueResult drops it). */
async function retryDelays(
  messages: ReturnType<typeof message>[],
  bindings: Env,
): Promise<Record<string, number | undefined>> {
  const delays: Record<string, number | undefined> = {};
  const batch = {
    queue: JOBS,
    messages: messages.map((m) => ({
      ...m,
      timestamp: new Date(),
      ack() {},
      retry: (options?: QueueRetryOptions) => void (delays[m.id] = options?.delaySeconds),
    })),
    ackAll() {},
    retryAll() {},
  } as unknown as MessageBatch<unknown>;
  await worker.queue(batch, bindings);
  return delays;
}

describe("dead-letter queue", () => {
  it("marks the task failed with a clear statusMessage", async ({ expect }) => {
    const { stub, input, principal, taskId } = freshTask("countdown", { seconds: 1 });
    await stub.create(input);
    const msg = message({ v: 1, principal, taskId }, 11);
    expect((await consume(DLQ, [msg])).explicitAcks).toEqual([msg.id]);
    const snapshot = await stub.get();
    expect(snapshot?.task.status).toBe("failed");
    expect(snapshot?.task.statusMessage).toMatch(/could not be started.*exhausted its delivery retries/);
    expect(snapshot?.outcome).toMatchObject({ kind: "error", error: { code: -32603 } });
    expect((await storedRecord(stub))?.run.runs).toBe(0);
  });

  it("leaves a task that already finished untouched", async ({ expect }) => {
    const { stub, input, principal, taskId } = freshTask("countdown", { seconds: 1 });
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
    await consume(DLQ, [message({ v: 1, principal, taskId }, 11)]);
    expect((await stub.get())?.task.status).toBe("completed");
  });

  it("retries when the task's object cannot be reached", async ({ expect }) => {
    const { principal, taskId } = freshTask();
    const msg = message({ v: 1, principal, taskId }, 1);
    const result = await consume(DLQ, [msg], failingEnv());
    expect(result.retryMessages).toEqual([{ msgId: msg.id }]);
    expect(result.explicitAcks).toEqual([]);
  });
});
