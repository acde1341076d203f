// Fan-out on the real runtime: batch_process { parallel: true } runs its items as step-queue
// messages, with the sequential run's result, and each item once even when the task sends queued
// items again. Cancel and crash recovery have files (and servers) of their own, so no test here
// shares the local queue, which runs one batch at a time, with another's leftovers.
import { beforeAll, describe, it, vi } from "vitest";
import { ownServer } from "./support/dev-server";
import { failWithLogs } from "./support/wrangler-dev";
import { eventLog, startTask } from "./support/tasks";
import { batchLines, ofType, sumOfSquares, taskResult, total } from "./support/fan-out";
import { until } from "../until";

// It reads the server's output, so the server is its own.
const server = ownServer({ vars: { LEASE_MS: "3000" } });

beforeAll(async () => {
  // A short lease: queued items are presumed lost, and sent again, after 3 s without a claim.
});

const withServerLogs = (error: unknown): never => failWithLogs(server, error);

describe("batch_process with parallel: true", () => {
  it("returns the sequential run's text and structuredContent, with one step event per item", async ({ expect }) => {
    const parallelId = await startTask(server.url, "batch_process", { items: 40, secondsPerItem: 0.5, parallel: true });
    const sequentialId = await startTask(server.url, "batch_process", { items: 40, secondsPerItem: 0 });
    const [parallel, sequential] = [await taskResult(server, parallelId), await taskResult(server, sequentialId)];
    expect(parallel["content"]).toEqual([{ type: "text", text: "Processed 40 items." }]);
    expect(parallel["content"]).toEqual(sequential["content"]);
    expect(parallel["structuredContent"]).toEqual({
      summary: "Processed 40 items.",
      items: 40,
      checksum: sumOfSquares(40),
    });
    expect(parallel["structuredContent"]).toEqual(sequential["structuredContent"]);

    const log = await eventLog(server.url, parallelId);
    const steps = ofType(log, "step").map((e) => String(e.data["name"]));
    expect(steps.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `processItem[${i}]`).sort());
    expect(ofType(log, "progress").map((e) => Number(e.data["progress"]))).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    expect(ofType(log, "result")).toHaveLength(1);
  });

  it("runs each item once although the task sends queued ones again (duplicates), in whatever order they finish", async ({
    expect,
  }) => {
    const from = server.logs().length;
    // 150 items of 8 s: the 50 behind the first batch of 100 wait longer than LEASE_MS (3 s)
    // unclaimed, so the task's alarm sends them again while their first messages are still queued.
    const taskId = await startTask(server.url, "batch_process", { items: 150, secondsPerItem: 8, parallel: true });
    const result = await taskResult(server, taskId);
    expect(result["structuredContent"]).toEqual({
      summary: "Processed 150 items.",
      items: 150,
      checksum: sumOfSquares(150),
    });
    await vi
      .waitFor(() => expect(total(batchLines(server, from), "stored")).toBe(150), until(250))
      .catch(withServerLogs);
    const lines = batchLines(server, from);
    expect(total(lines, "ran")).toBe(150);
    expect(total(lines, "skipped")).toBeGreaterThanOrEqual(1);
    const log = await eventLog(server.url, taskId);
    expect(ofType(log, "step")).toHaveLength(150);
    expect(new Set(ofType(log, "step").map((e) => e.data["name"])).size).toBe(150);
    expect(ofType(log, "progress").map((e) => Number(e.data["progress"]))).toEqual(
      Array.from({ length: 150 }, (_, i) => i + 1),
    );
  });
});
