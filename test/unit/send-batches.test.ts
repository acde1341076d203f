// sendBatch calls within the Queues limits (src/queues/send-batches.ts): 100 messages and 256 KB a
// call, 128 KB a message, 1 KB = 1,000 bytes, ~100 bytes of metadata each; we keep 10 % under.
import { describe, it } from "vitest";
import {
  BATCH_BUDGET_BYTES,
  MESSAGE_BUDGET_BYTES,
  planSendBatches,
  QUEUE_LIMITS,
  queuedBytes,
} from "../../src/queues/send-batches";

/** A body whose queued size is exactly `bytes` (ASCII, so characters are bytes). */
const sized = (bytes: number) => ({ t: "x".repeat(bytes - QUEUE_LIMITS.metadataBytes - '{"t":""}'.length) });

describe("queuedBytes", () => {
  it("counts the body's UTF-8 JSON bytes plus the metadata, not its UTF-16 length", ({ expect }) => {
    expect(queuedBytes({ t: "abc" })).toBe('{"t":"abc"}'.length + 100);
    expect(queuedBytes({ t: "é" })).toBe('{"t":""}'.length + 2 + 100);
    expect(queuedBytes({ t: "😀" })).toBe('{"t":""}'.length + 4 + 100);
    // JSON escapes count: a quote travels as two bytes.
    expect(queuedBytes({ t: '"' })).toBe('{"t":"\\""}'.length + 100);
    expect(queuedBytes(sized(5000))).toBe(5000);
  });

  it("keeps each budget 10 % under Cloudflare's documented limit", ({ expect }) => {
    expect(BATCH_BUDGET_BYTES).toBe(230_400);
    expect(MESSAGE_BUDGET_BYTES).toBe(115_200);
  });
});

describe("planSendBatches", () => {
  it("cuts at 100 messages however small they are", ({ expect }) => {
    const plan = planSendBatches(Array.from({ length: 250 }, (_, i) => ({ i })));
    expect(plan.batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(plan.tooLarge).toEqual([]);
    expect(planSendBatches([])).toEqual({ batches: [], tooLarge: [] });
  });

  it("fills a call to exactly the byte budget, and starts the next one a byte past it", ({ expect }) => {
    const third = BATCH_BUDGET_BYTES / 3;
    const exact = [sized(third), sized(third), sized(third)];
    expect(planSendBatches(exact).batches.map((b) => b.length)).toEqual([3]);
    const over = [sized(third), sized(third), sized(third + 1)];
    expect(planSendBatches(over).batches.map((b) => b.length)).toEqual([2, 1]);
  });

  it("splits 100 webhook-sized messages of 2,500 characters by bytes, each call within 256 KB and 100 messages", ({
    expect,
  }) => {
    const bodies = Array.from({ length: 100 }, (_, i) => ({
      id: `t.${i}`,
      body: JSON.stringify({ text: "y".repeat(2500) }),
    }));
    const { batches, tooLarge } = planSendBatches(bodies);
    expect(tooLarge).toEqual([]);
    expect(batches.flat()).toEqual(bodies); // every body, in order
    expect(batches.length).toBeGreaterThan(1);
    for (const batch of batches) {
      expect(batch.length).toBeLessThanOrEqual(QUEUE_LIMITS.messagesPerBatch);
      expect(batch.reduce((sum, body) => sum + queuedBytes(body), 0)).toBeLessThanOrEqual(QUEUE_LIMITS.batchBytes);
    }
  });

  it("sends a message of exactly the one-message budget, and sets aside one a byte larger with its size", ({
    expect,
  }) => {
    const fits = sized(MESSAGE_BUDGET_BYTES);
    const big = sized(MESSAGE_BUDGET_BYTES + 1);
    const plan = planSendBatches([{ a: 1 }, fits, big, { b: 2 }]);
    expect(plan.tooLarge).toEqual([{ body: big, bytes: MESSAGE_BUDGET_BYTES + 1 }]);
    expect(plan.batches).toEqual([[{ a: 1 }, fits, { b: 2 }]]);
  });
});
