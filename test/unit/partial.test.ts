// Partial results, the pure parts: checking blocks, numbering and summing up pieces, the limits,
// job.publish's keys across a replay, the model's words and the webhook mapping.
import { describe, it } from "vitest";
import type { PartialBlock, TaskEvent, TaskRecord } from "../../src/core";
import { webhookMessagesFor } from "../../src/webhooks/events";
import { parseBlocks, partialLimitProblem, recordPartial } from "../../src/core/model/partial";
import { createJobContext } from "../../src/jobs/job-context";
import { withNewestPieces, withOutputSoFar } from "../../src/protocol/partial-sentences";
import { parseAfter, parseTaskReadUri } from "../../src/protocol/partial-output";
import { memoryHost, MemoryTables } from "./memory-host";

const record = (partial?: TaskRecord["partial"]): TaskRecord => ({
  taskId: "a".repeat(32),
  principal: "p",
  tool: "batch_process",
  args: {},
  status: "working",
  createdAt: 0,
  lastUpdatedAt: 0,
  ttlMs: 1000,
  expiresAt: 1000,
  pollIntervalMs: 1000,
  meta: {},
  run: { phase: "running", runs: 1, failures: 0, delivered: true, dispatchBy: 0 },
  ...(partial && { partial }),
});

describe("parseBlocks", () => {
  it("turns strings into text blocks and keeps resource links", ({ expect }) => {
    expect(parseBlocks(["a", { type: "resource_link", uri: "https://x.test/r", name: "r" }])).toEqual({
      ok: true,
      blocks: [
        { type: "text", text: "a" },
        { type: "resource_link", uri: "https://x.test/r", name: "r" },
      ],
    });
  });

  it("refuses what is no text or resource link, an empty call and an oversized piece, saying why", ({ expect }) => {
    for (const bad of [
      [],
      [""],
      [{ type: "image", data: "x" }],
      [{ type: "resource_link", name: "no uri" }],
      [{ type: "text", text: "x", extra: 1 }],
      [3],
    ]) {
      const parsed = parseBlocks(bad);
      expect(parsed.ok).toBe(false);
      if (!parsed.ok) expect(parsed.message).toMatch(/^publish takes 1 to 100 strings or content blocks/);
    }
    expect(parseBlocks(["x".repeat(16 * 1024)])).toMatchObject({
      ok: false,
      message: expect.stringMatching(/at most 16384 bytes/),
    });
  });
});

describe("recordPartial", () => {
  it("numbers pieces after those held and keeps the newest three in words", ({ expect }) => {
    const first = recordPartial(record(), [
      { type: "text", text: "one" },
      { type: "text", text: "two" },
    ]);
    expect(first.pieces.map((p) => p.n)).toEqual([1, 2]);
    expect(first.events).toEqual([
      { type: "partial", data: { n: 1, content: { type: "text", text: "one" } } },
      { type: "partial", data: { n: 2, content: { type: "text", text: "two" } } },
    ]);
    const blocks: PartialBlock[] = [
      { type: "text", text: "three" },
      { type: "resource_link", uri: "https://x.test/4", name: "four" },
    ];
    const second = recordPartial(first.record, blocks);
    expect(second.record.partial?.pieces).toBe(4);
    expect(second.record.partial?.newest).toEqual([
      { n: 2, text: "two" },
      { n: 3, text: "three" },
      { n: 4, text: "four (https://x.test/4)" },
    ]);
    expect(second.record.partial?.bytes).toBe(
      JSON.stringify([...first.pieces.map((p) => p.content), ...blocks]).length - 5,
    );
  });
});

describe("partialLimitProblem", () => {
  it("refuses past the pieces or the bytes, and never past 1000 pieces whatever the setting", ({ expect }) => {
    const held = record({ pieces: 3, bytes: 100, newest: [] });
    expect(partialLimitProblem(held, [{ type: "text", text: "x" }], { maxPieces: 3, maxBytes: 1000 })).toMatch(
      /at most 3; nothing more was published/,
    );
    expect(
      partialLimitProblem(held, [{ type: "text", text: "x".repeat(900) }], { maxPieces: 10, maxBytes: 1000 }),
    ).toMatch(/would pass 1000 bytes/);
    expect(partialLimitProblem(held, [{ type: "text", text: "x" }], { maxPieces: 10, maxBytes: 1000 })).toBeUndefined();
    expect(
      partialLimitProblem(record({ pieces: 1000, bytes: 0, newest: [] }), [{ type: "text", text: "x" }], {
        maxPieces: 5000,
        maxBytes: 1e9,
      }),
    ).toMatch(/at most 1000/);
  });
});

describe("job.publish", () => {
  /** Runs a job twice over the same steps, the second run a replay, and returns the keys each run published under. */
  async function keysOfTwoRuns(): Promise<string[][]> {
    const tables = new MemoryTables();
    const runs: string[][] = [];
    for (let run = 0; run < 2; run++) {
      const keys: string[] = [];
      const host = memoryHost(tables, {
        attempt: run + 1,
        publish: (key) => {
          keys.push(key);
          return { kind: "published", pieces: [] };
        },
      });
      const job = createJobContext(host, {});
      await job.publish("before");
      await job.step("a", async () => (await job.publish("inside a"), 1));
      await job.publish("after a");
      await job.publish("after a, again");
      runs.push(keys);
    }
    return runs;
  }

  it("names each publish by where it runs and what it holds, so a replay that skips a step's body repeats the same keys", async ({
    expect,
  }) => {
    const [first, replay] = await keysOfTwoRuns();
    expect(new Set(first).size).toBe(4);
    expect(replay).toEqual([0, 2, 3].map((i) => first?.[i]));
  });

  it("throws a PartialLimitError the tool can catch when the host refuses", async ({ expect }) => {
    const host = memoryHost(new MemoryTables(), {
      publish: () => ({ kind: "refused", message: "The task already holds 3 partial results." }),
    });
    await expect(createJobContext(host, {}).publish("x")).rejects.toMatchObject({
      name: "PermanentError",
      message: "job.publish: The task already holds 3 partial results.",
    });
    // What a tool written in plain JavaScript could pass: the method's parameters are checked at run time.
    const loose: { publish(...pieces: unknown[]): Promise<void> } = createJobContext(host, {});
    await expect(loose.publish({ type: "nope" })).rejects.toThrow(/^job.publish: publish takes/);
  });
});

describe("what readers pass and the model reads", () => {
  it("parses after and task://{id}?after=N", ({ expect }) => {
    expect(parseAfter(undefined)).toBeUndefined();
    expect(parseAfter("0")).toBe(0);
    expect(parseAfter("12")).toBe(12);
    for (const bad of ["", "-1", "01", "1.5", "x", "9999999"]) expect(parseAfter(bad)).toBe("bad");
    const id = "b".repeat(32);
    expect(parseTaskReadUri(`task://${id}`)).toEqual({ taskId: id });
    expect(parseTaskReadUri(`task://${id}?after=3`)).toEqual({ taskId: id, after: 3 });
    expect(parseTaskReadUri(`task://${id}?after=x`)).toBe("bad_after");
    expect(parseTaskReadUri(`task://${id}?other=1`)).toBe("bad_after");
    expect(parseTaskReadUri("task://nope?after=1")).toBeUndefined();
  });

  it("says the newest pieces with how many came before, and that there is output so far", ({ expect }) => {
    const partial = {
      pieces: 7,
      bytes: 1,
      newest: [
        { n: 5, text: "e" },
        { n: 6, text: "f" },
        { n: 7, text: "g" },
      ],
    };
    expect(withNewestPieces({ summary: "Task x is still running.", next: "n" }, { partial })).toEqual({
      summary:
        'Task x is still running. Output so far, 7 pieces; the newest: 5. "e" 6. "f" 7. "g" (4 pieces came before; read the task resource for all of them.)',
      next: "n",
    });
    expect(withOutputSoFar({ summary: "Still running: … This is not its result." }, { partial }).summary).toBe(
      'Still running: … This is not its result. It has output so far: 7 pieces (the newest: "g"); task_status shows the newest.',
    );
    expect(withNewestPieces({ summary: "s" }, {})).toEqual({ summary: "s" });
  });
});

describe("webhooks", () => {
  const task = record();
  const piece = (seq: number, n: number): TaskEvent => ({
    seq,
    at: seq * 1000,
    type: "partial",
    data: { n, content: { type: "text", text: `Item ${n} of 2: ${n * n}.` } },
  });

  it("send each piece as task.partial, unthrottled, only to a subscriber that asked for partial", ({ expect }) => {
    const events = [piece(3, 1), piece(4, 2)];
    expect(
      webhookMessagesFor(task, events, { url: "https://example.com/h", events: ["progress"] }, undefined).messages,
    ).toEqual([]);
    const { messages } = webhookMessagesFor(
      task,
      events,
      { url: "https://example.com/h", events: ["partial"] },
      undefined,
    );
    expect(messages.map((m) => [m.type, m.id])).toEqual([
      ["task.partial", `${task.taskId}.3`],
      ["task.partial", `${task.taskId}.4`],
    ]);
    expect(JSON.parse(messages[1]?.body ?? "{}")).toMatchObject({
      type: "task.partial",
      data: { taskId: task.taskId, piece: { n: 2, content: { type: "text", text: "Item 2 of 2: 4." } } },
    });
  });
});
