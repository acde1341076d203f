// An upgrade drains (issue 41): messages the release before the `queue` tag sent (no tag) are routed
// by their shape (src/queues/untagged.ts), and one rule holds for any body this Worker cannot read,
// untagged or malformed: retried on a working queue, recorded on its task from a dead-letter queue
// (src/queues/unreadable.ts). Batches go through the Worker's own queue() handler.
import { afterEach, describe, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import worker from "../../src/index";
import type { TaskEvent } from "../../src/core";
import { freshTask, storedRecord, type TaskStub } from "./support";
import { until } from "../until";

const settle = until(100);
const HOOK_URL = "https://hooks.example.com/upgrade";

/** A message as the queue hands it over; `body` exactly as given (no tag added). */
const message = (body: unknown, attempts = 1) => ({ id: crypto.randomUUID(), timestamp: new Date(), attempts, body });

async function consume(queue: string, messages: ReturnType<typeof message>[]) {
  const batch = createMessageBatch(queue, messages);
  const ctx = createExecutionContext();
  await worker.queue(batch, env);
  return getQueueResult(batch, ctx);
}

const logLines = async (stub: TaskStub): Promise<string[]> =>
  (await stub.events(0)).flatMap((event: TaskEvent) => (event.type === "log" ? [event.data.message] : []));

/** The webhook-ids POSTed to HOOK_URL; everything else goes to the real fetch. */
function receiver(): string[] {
  const received: string[] = [];
  const realFetch = globalThis.fetch;
  vi.stubGlobal("fetch", async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (request.url !== HOOK_URL) return realFetch(request);
    received.push(request.headers.get("webhook-id") ?? "");
    return new Response(null, { status: 204 });
  });
  return received;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

/** A task that exists (a long countdown, never delivered: nothing runs unless a test starts it). */
async function existingTask() {
  const task = freshTask("countdown", { seconds: 600 });
  await task.stub.create(task.input);
  return task;
}

/** A webhook message exactly as the release before the tag queued it. */
const oldWebhook = (principal: string, taskId: string) => ({
  v: 1,
  id: `${taskId}.7`,
  principal,
  taskId,
  url: HOOK_URL,
  type: "task.completed",
  body: JSON.stringify({ type: "task.completed", data: { taskId } }),
});

describe("untagged messages of the previous release", () => {
  it("a job message is handed to its TaskObject, which runs the job", async ({ expect }) => {
    const { stub, input, principal, taskId } = freshTask("countdown", { seconds: 1 });
    await stub.create(input);
    const old = message({ v: 1, principal, taskId });
    const result = await consume("mcp-task-jobs", [old]);
    expect([result.explicitAcks, result.retryMessages]).toEqual([[old.id], []]);
    expect((await storedRecord(stub))?.run.delivered).toBe(true);
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
  });

  it("a job message in the dead-letter queue fails its task as a tagged one does", async ({ expect }) => {
    const { stub, principal, taskId } = await existingTask();
    const old = message({ v: 1, principal, taskId }, 11);
    expect((await consume("mcp-task-jobs-dlq", [old])).explicitAcks).toEqual([old.id]);
    expect((await stub.get())?.task.statusMessage).toMatch(/could not be started.*exhausted its delivery retries/);
  });

  it("a step message goes to the step consumer, which claims it (a fan-out the task lacks: acknowledged)", async ({
    expect,
  }) => {
    const { principal, taskId } = await existingTask();
    const old = message({ v: 1, principal, taskId, fanOut: "fanout:start#1", index: 0 });
    const result = await consume("mcp-task-steps", [old]);
    expect([result.explicitAcks, result.retryMessages]).toEqual([[old.id], []]);
  });

  it("a webhook message is delivered, signed, and its delivery recorded on the task", async ({ expect }) => {
    const received = receiver();
    const { stub, principal, taskId } = await existingTask();
    const old = message(oldWebhook(principal, taskId));
    expect((await consume("mcp-task-webhooks", [old])).explicitAcks).toEqual([old.id]);
    expect(received).toEqual([`${taskId}.7`]);
    expect(await logLines(stub)).toContainEqual(expect.stringMatching(/task\.completed .*delivered on attempt 1 of/));
  });

  it("a webhook retry that reached the dead-letter queue is recorded on its task, not refused", async ({ expect }) => {
    const received = receiver();
    const { stub, principal, taskId } = await existingTask();
    const old = message(oldWebhook(principal, taskId), 14);
    expect((await consume("mcp-task-webhooks-dlq", [old])).explicitAcks).toEqual([old.id]);
    expect(received).toEqual([]);
    expect(await logLines(stub)).toContainEqual(
      expect.stringMatching(/was given up by the queue after 14 deliveries; it was not delivered/),
    );
  });
});

describe("one rule for a body this Worker cannot read, untagged or malformed", () => {
  const unreadable = (principal: string, taskId: string) => ({
    malformed: message({ queue: "job", v: 2, principal, taskId }),
    unknownShape: message({ v: 1, principal, taskId, retriedBy: "a release to come" }),
    unknownTag: message({ queue: "invoices", principal, taskId }),
  });

  it("on a working queue: retried, never acknowledged, whichever it is", async ({ expect }) => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { stub, principal, taskId } = await existingTask();
    const bodies = Object.values(unreadable(principal, taskId));
    const result = await consume("mcp-task-jobs", bodies);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages.map((m) => m.msgId).sort()).toEqual(bodies.map((m) => m.id).sort());
    expect(await logLines(stub)).toEqual([]);
    vi.restoreAllMocks();
  });

  it("on a dead-letter queue: recorded on the task each names, with the message's id and why, then acknowledged", async ({
    expect,
  }) => {
    vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { stub, principal, taskId } = await existingTask();
    const { malformed, unknownShape, unknownTag } = unreadable(principal, taskId);
    const result = await consume("mcp-task-jobs-dlq", [malformed, unknownShape, unknownTag]);
    expect(result.explicitAcks.sort()).toEqual([malformed.id, unknownShape.id, unknownTag.id].sort());
    const lines = await logLines(stub);
    expect(lines).toHaveLength(3);
    expect(lines.find((line) => line.includes(malformed.id))).toMatch(
      /could not be read and was dropped: its job body is malformed at v: /,
    );
    for (const other of [unknownShape, unknownTag]) {
      expect(lines.find((line) => line.includes(other.id))).toMatch(
        /could not be read and was dropped: its body names no consumer/,
      );
    }
    expect((await stub.get())?.task.status).toBe("working");
    vi.restoreAllMocks();
  });

  it("on a dead-letter queue, a body naming no task is logged with the message's id and acknowledged", async ({
    expect,
  }) => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const nameless = message({ queue: "webhook", v: 1 });
    const unknownTask = message({ v: 1, principal: "nobody", taskId: "f".repeat(32), extra: 1 });
    const result = await consume("mcp-task-webhooks-dlq", [nameless, unknownTask]);
    expect(result.explicitAcks.sort()).toEqual([nameless.id, unknownTask.id].sort());
    const lines = errors.mock.calls.map((call) => String(call[0]));
    expect(lines.find((line) => line.includes(nameless.id))).toContain('"recorded":"log only: the body names no task"');
    expect(lines.find((line) => line.includes(unknownTask.id))).toContain('"recorded":"log only: no such task"');
    vi.restoreAllMocks();
  });
});
