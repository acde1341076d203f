// The queue() handler routes by each body's tag (src/queues/router.ts), never by the queue's name, and
// never acknowledges a message it cannot route.
import { describe, it, vi } from "vitest";
import { queueRouter, UNKNOWN_RETRY_SECONDS, type BatchHandler } from "../../src/queues/router";
import { isDeadLetterQueue, tagged } from "../../src/queues/routing";
import { taggedQueue } from "../../src/queues/task-queues";

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

  it("retries a message with no known tag, logged, and never acknowledges it", async ({ expect }) => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { seen, router } = recording();
    const untagged = message("old", { v: 1, principal: "p", taskId: "0".repeat(32) });
    const unknown = message("new", { queue: "invoices", v: 1 });
    const job = message("j", tagged("job", { v: 1 }));
    await router(batchOf("mcp-task-jobs", [untagged, unknown, job]), env);
    expect(seen).toEqual(["job@mcp-task-jobs: j"]);
    for (const m of [untagged, unknown]) {
      expect(m.acked).toBe(false);
      expect(m.retried).toEqual({ delaySeconds: UNKNOWN_RETRY_SECONDS });
    }
    expect(errors).toHaveBeenCalledTimes(2);
    expect(String(errors.mock.calls[0]?.[0])).toContain('"event":"queue.unknown_message"');
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

  it("tells a dead-letter queue by its -dlq ending alone", ({ expect }) => {
    expect(["acme-jobs-dlq", "mcp-task-steps-dlq"].map(isDeadLetterQueue)).toEqual([true, true]);
    expect(["acme-jobs", "dlq-jobs"].map(isDeadLetterQueue)).toEqual([false, false]);
  });
});
