// A commit's webhooks onto the queue within its limits (src/webhooks/enqueue.ts), what cannot be
// queued named with its cause, and log lines cut by their middle (src/core/model/clip.ts).
import { describe, it } from "vitest";
import { enqueueWebhooks, lossLine, SEND_ATTEMPTS } from "../../src/webhooks/enqueue";
import type { WebhookMessage } from "../../src/webhooks/events";
import { QUEUE_LIMITS, queuedBytes } from "../../src/queues/send-batches";
import { clipMiddle } from "../../src/core/model/clip";

const TASK_ID = "0123456789abcdef0123456789abcdef";

const hook = (seq: number, text: string): WebhookMessage => ({
  v: 1,
  id: `${TASK_ID}.${seq}`,
  principal: "anon",
  taskId: TASK_ID,
  url: "https://hooks.example.com/in",
  type: "task.partial",
  body: JSON.stringify({
    type: "task.partial",
    data: { taskId: TASK_ID, piece: { n: seq, content: { type: "text", text } } },
  }),
});

/** A Queue that holds to Cloudflare's documented limits itself (not our budgets) and can fail some calls. */
function limitedQueue(failCalls: ReadonlySet<number> = new Set()) {
  const calls: MessageSendRequest[][] = [];
  let call = 0;
  const metrics = { backlogCount: 0, backlogBytes: 0 };
  const queue: Queue = {
    metrics: async () => metrics,
    send: async () => ({ metadata: { metrics } }),
    sendBatch: async (requests) => {
      call += 1;
      if (failCalls.has(call)) throw new Error("Unknown Internal Error (15000)");
      const list = [...requests];
      const bytes = list.reduce((sum, r) => sum + queuedBytes(r.body), 0);
      if (list.length > QUEUE_LIMITS.messagesPerBatch || bytes > QUEUE_LIMITS.batchBytes) {
        throw new Error(`batch of ${list.length} messages, ${bytes} bytes: over the limits`);
      }
      calls.push(list);
      return { metadata: { metrics } };
    },
  };
  return { queue, calls };
}

describe("enqueueWebhooks", () => {
  it("queues all 100 events of a 100 × 2,500-character publish, in order, tagged, in calls within the limits", async ({
    expect,
  }) => {
    const { queue, calls } = limitedQueue();
    const messages = Array.from({ length: 100 }, (_, i) => hook(i + 1, "z".repeat(2500)));
    expect(await enqueueWebhooks(queue, messages)).toEqual([]);
    expect(calls.length).toBeGreaterThan(1);
    const sent = calls.flat().map((r) => r.body as WebhookMessage & { queue: string });
    expect(sent.map((m) => m.id)).toEqual(messages.map((m) => m.id));
    expect(sent.every((m) => m.queue === "webhook")).toBe(true);
  });

  it("retries a refused call on its own, so nothing already queued is sent twice", async ({ expect }) => {
    const { queue, calls } = limitedQueue(new Set([2]));
    const messages = Array.from({ length: 100 }, (_, i) => hook(i + 1, "z".repeat(2500)));
    expect(await enqueueWebhooks(queue, messages)).toEqual([]);
    expect(calls.flat().map((r) => (r.body as WebhookMessage).id)).toEqual(messages.map((m) => m.id));
  });

  it("names the events of a call refused every time, with the queue's own words", async ({ expect }) => {
    const { queue } = limitedQueue(new Set(Array.from({ length: SEND_ATTEMPTS }, (_, i) => i + 1)));
    const lost = await enqueueWebhooks(queue, [hook(1, "a"), hook(2, "b")]);
    expect(lost).toEqual([
      {
        ids: [`${TASK_ID}.1`, `${TASK_ID}.2`],
        cause: `the queue refused them ${SEND_ATTEMPTS} times: Unknown Internal Error (15000)`,
      },
    ]);
  });

  it("sets aside an event too large for one queue message, says so, and queues the others", async ({ expect }) => {
    const { queue, calls } = limitedQueue();
    const huge = hook(2, "h".repeat(120_000));
    const lost = await enqueueWebhooks(queue, [hook(1, "a"), huge, hook(3, "c")]);
    expect(calls.flat().map((r) => (r.body as WebhookMessage).id)).toEqual([`${TASK_ID}.1`, `${TASK_ID}.3`]);
    expect(lost).toHaveLength(1);
    expect(lost[0]?.ids).toEqual([huge.id]);
    expect(lost[0]?.cause).toMatch(/^its queue message would be \d+ bytes, over the 115200-byte budget of one message/);
  });
});

describe("enqueueWebhooks without a WEBHOOKS queue (an adopter that registered a webhook, then unbound it)", () => {
  it("loses every event with a cause that names the binding and the lines to add, never a TypeError", async ({
    expect,
  }) => {
    const lost = await enqueueWebhooks(undefined, [hook(1, "a"), hook(2, "b")]);
    expect(lost).toEqual([
      { ids: [`${TASK_ID}.1`, `${TASK_ID}.2`], cause: expect.stringContaining('"binding": "WEBHOOKS"') },
    ]);
    expect(lossLine(lost[0] ?? { ids: [], cause: "" })).toMatch(
      /^Webhook events could not be queued .*binds no WEBHOOKS queue/,
    );
  });
});

describe("the log line of lost events", () => {
  it("starts with the cause and names many ids by their first and last, within the 2,000-character line", ({
    expect,
  }) => {
    const ids = Array.from({ length: 100 }, (_, i) => `${TASK_ID}.${i + 1}`);
    const line = lossLine({ ids, cause: "the queue refused them 3 times: Unknown Internal Error (15000)" });
    expect(line).toBe(
      "Webhook events could not be queued for delivery and were not sent: the queue refused them 3 times: " +
        `Unknown Internal Error (15000). Lost: 100 events, webhook-id ${TASK_ID}.1 … ${TASK_ID}.100.`,
    );
    expect(line.length).toBeLessThan(2000);
  });
});

describe("clipMiddle", () => {
  it("keeps text within the bound untouched", ({ expect }) => {
    expect(clipMiddle("short", 2000)).toBe("short");
    expect(clipMiddle("x".repeat(2000), 2000)).toBe("x".repeat(2000));
  });

  it("cuts a long line by its middle to the bound, so its start and its cause at the end survive", ({ expect }) => {
    const text = `Webhook events ${"id, ".repeat(1000)}could not be queued: Unknown Internal Error (15000)`;
    const clipped = clipMiddle(text, 2000);
    expect(clipped.length).toBeLessThanOrEqual(2000);
    expect(clipped.startsWith("Webhook events id, ")).toBe(true);
    expect(clipped.endsWith("could not be queued: Unknown Internal Error (15000)")).toBe(true);
    expect(clipped).toMatch(/ \[…\d+ characters cut…\] /);
  });
});
