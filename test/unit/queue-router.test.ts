// The queue() handler routes by each body's tag (src/queues/router.ts), never by the queue's name; a body
// without the tag by the shape the previous release wrote (src/queues/untagged.ts); anything else by the
// one rule for unreadable messages (src/queues/unreadable.ts).
import { describe, it, vi } from "vitest";
import { queueRouter, type BatchHandler } from "../../src/queues/router";
import { UNREADABLE_RETRY_SECONDS } from "../../src/queues/unreadable";
import { isDeadLetterQueue, tagged } from "../../src/queues/routing";
import { taggedQueue, taskQueues } from "../../src/queues/task-queues";

interface FakeMessage extends Message<unknown> {
  acked: boolean;
  retried?: QueueRetryOptions;
}

function message(id: string, body: unknown): FakeMessage {
  return {
    id,
    body,
    attempts: 1,
    timestamp: new Date(0),
    acked: false,
    ack() {
      this.acked = true;
    },
    retry(options) {
      this.retried = options ?? {};
    },
  };
}

const batchOf = (queue: string, messages: FakeMessage[]): MessageBatch<unknown> => ({
  queue,
  messages,
  metadata: { metrics: { backlogCount: 0, backlogBytes: 0 } },
  retryAll: () => undefined,
  ackAll: () => undefined,
});

/** Handlers that record which messages each got, and from which queue. */
function recording() {
  const seen: string[] = [];
  const handler =
    (kind: string): BatchHandler =>
    async (batch) => {
      seen.push(`${kind}@${batch.queue}: ${batch.messages.map((m) => m.id).join(",")}`);
      batch.ackAll();
    };
  return { seen, router: queueRouter({ job: handler("job"), step: handler("step"), webhook: handler("webhook") }) };
}

const env = {} as Env;

describe("queueRouter", () => {
  it("hands each message to the consumer its tag names, whatever its queue is called", async ({ expect }) => {
    const { seen, router } = recording();
    const messages = [
      message("a", tagged("step", { v: 1 })),
      message("b", tagged("webhook", { v: 1 })),
      message("c", tagged("step", { v: 1 })),
    ];
    await router(batchOf("second-deployment-anything", messages), env);
    expect(seen.sort()).toEqual(["step@second-deployment-anything: a,c", "webhook@second-deployment-anything: b"]);
    expect(messages.every((m) => m.acked)).toBe(true);
  });

  it("routes an untagged body by the shape the previous release sent: job, step, webhook", async ({ expect }) => {
    const { seen, router } = recording();
    const taskId = "0".repeat(32);
    const messages = [
      message("j", { v: 1, principal: "p", taskId }),
      message("js", { v: 1, principal: "p", taskId, started: true }),
      message("s", { v: 1, principal: "p", taskId, fanOut: "f#1", index: 3 }),
      message("w", {
        v: 1,
        id: `${taskId}.4`,
        principal: "p",
        taskId,
        url: "https://h.example/",
        type: "t",
        body: "{}",
      }),
    ];
    await router(batchOf("mcp-task-jobs", messages), env);
    expect(seen.sort()).toEqual(["job@mcp-task-jobs: j,js", "step@mcp-task-jobs: s", "webhook@mcp-task-jobs: w"]);
  });

  it("retries, logged and never acknowledged, a body with no known tag and no old shape", async ({ expect }) => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { seen, router } = recording();
    const stranger = message("old", { v: 1, principal: "p", taskId: "0".repeat(32), extra: true });
    const unknown = message("new", { queue: "invoices", v: 1 });
    const job = message("j", tagged("job", { v: 1 }));
    await router(batchOf("mcp-task-jobs", [stranger, unknown, job]), env);
    expect(seen).toEqual(["job@mcp-task-jobs: j"]);
    for (const m of [stranger, unknown]) {
      expect(m.acked).toBe(false);
      expect(m.retried).toEqual({ delaySeconds: UNREADABLE_RETRY_SECONDS });
    }
    expect(errors).toHaveBeenCalledTimes(2);
    expect(String(errors.mock.calls[0]?.[0])).toContain('"event":"queue.unreadable_message"');
    errors.mockRestore();
  });

  it("on a dead-letter queue, records such a body on the task it names and acknowledges it", async ({ expect }) => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const logs: string[] = [];
    const taskEnv = {
      TASKS: { getByName: () => ({ appendLog: async (_level: string, text: string) => (logs.push(text), true) }) },
    } as unknown as Env;
    const { router } = recording();
    const named = message("n", { queue: "invoices", principal: "p", taskId: "0".repeat(32) });
    const nameless = message("x", "not an object");
    await router(batchOf("mcp-task-jobs-dlq", [named, nameless]), taskEnv);
    expect([named.acked, nameless.acked]).toEqual([true, true]);
    expect(logs).toEqual([
      expect.stringMatching(
        /^A queue message for this task \(message id n, queue mcp-task-jobs-dlq, 1 deliveries\) could not be read and was dropped: its body names no consumer/,
      ),
    ]);
    const lines = errors.mock.calls.map((call) => String(call[0]));
    expect(lines.find((line) => line.includes('"id":"n"'))).toContain('"recorded":"on the task"');
    expect(lines.find((line) => line.includes('"id":"x"'))).toContain('"recorded":"log only: the body names no task"');
    errors.mockRestore();
  });
});

describe("the queue port's adapter and the dead-letter rule", () => {
  it("sends each body tagged with its consumer, as JSON", async ({ expect }) => {
    const sent: unknown[] = [];
    const metrics = { backlogCount: 0, backlogBytes: 0 };
    const queue: Queue = {
      metrics: async () => metrics,
      send: async () => ({ metadata: { metrics } }),
      sendBatch: async (requests) => {
        sent.push(...requests);
        return { metadata: { metrics } };
      },
    };
    await taggedQueue(queue, "job").sendBatch([{ v: 1 }]);
    expect(sent).toEqual([{ body: { v: 1, queue: "job" }, contentType: "json" }]);
  });

  it("splits a send within the Queues limits and refuses, sending nothing, a body too large for one message", async ({
    expect,
  }) => {
    const calls: number[] = [];
    const metrics = { backlogCount: 0, backlogBytes: 0 };
    const queue: Queue = {
      metrics: async () => metrics,
      send: async () => ({ metadata: { metrics } }),
      sendBatch: async (requests) => {
        calls.push([...requests].length);
        return { metadata: { metrics } };
      },
    };
    await taggedQueue(queue, "step").sendBatch(Array.from({ length: 250 }, (_, i) => ({ v: 1, i })));
    expect(calls).toEqual([100, 100, 50]);
    await expect(taggedQueue(queue, "job").sendBatch([{ v: 1 }, { v: 1, big: "x".repeat(120_000) }])).rejects.toThrow(
      /1 job queue message\(s\) of 120\d{3} bytes exceed the 115200-byte budget .*nothing was sent/,
    );
    expect(calls).toEqual([100, 100, 50]);
  });

  it("without a STEPS binding (an adopter whose tools do not fan out), a fanOut's send names STEPS and the lines to add", async ({
    expect,
  }) => {
    const metrics = { backlogCount: 0, backlogBytes: 0 };
    const jobs: Queue = {
      metrics: async () => metrics,
      send: async () => ({ metadata: { metrics } }),
      sendBatch: async () => ({ metadata: { metrics } }),
    };
    await expect(taskQueues({ JOBS: jobs }).steps.sendBatch([])).rejects.toThrow(
      /job\.fanOut needs the STEPS queue, which this Worker does not bind: add \{ "binding": "STEPS"/,
    );
  });

  it("tells a dead-letter queue by its -dlq ending alone", ({ expect }) => {
    expect(["acme-jobs-dlq", "mcp-task-steps-dlq"].map(isDeadLetterQueue)).toEqual([true, true]);
    expect(["acme-jobs", "dlq-jobs"].map(isDeadLetterQueue)).toEqual([false, false]);
  });
});
