// Fan-out on the real runtime: batch_process { parallel: true } runs its items as step-queue
// messages. Same result as the sequential run; a cancel stops the items (running ones see their
// signal, queued ones are acknowledged unrun); a SIGKILL mid-fan-out loses the local queue's
// messages, and the TaskObject's alarm sends the outstanding items again, each completing once.
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { startDevServer, type DevServer } from "./support/wrangler-dev";
import { parseSse, rpc } from "./support/mcp";
import { getTask, startTask } from "./support/tasks";

let server: DevServer;

beforeAll(async () => {
  // A short lease, so the restart test does not wait 30 s for the dead consumer's items.
  server = await startDevServer({ vars: { LEASE_MS: "3000" } });
});

afterAll(async () => {
  await server?.stop();
});

interface LoggedEvent {
  event: string;
  data: Record<string, unknown>;
}

/** The whole event log of a finished task (the stream ends after the `result` event). */
async function eventLog(taskId: string): Promise<LoggedEvent[]> {
  const response = await fetch(`${server.url}/tasks/${taskId}/events`);
  return parseSse(await response.text()).map((e) => ({ event: e.event ?? "", data: JSON.parse(e.data) as Record<string, unknown> }));
}

async function taskResult(taskId: string): Promise<Record<string, unknown>> {
  const reply = await rpc(server.url, { jsonrpc: "2.0", id: 9, method: "tasks/result", params: { taskId } }, { headers: { Accept: "application/json" } });
  return (reply.body as { result: Record<string, unknown> }).result;
}

/** The step consumer's per-batch lines printed since `from` (an offset into the server's output). */
function batchLines(from: number): Record<string, number>[] {
  return server
    .logs()
    .slice(from)
    .split("\n")
    .filter((line) => line.includes('"fan_out.batch"'))
    .map((line) => JSON.parse(line.slice(line.indexOf("{"))) as Record<string, number>);
}

const total = (lines: Record<string, number>[], field: string) => lines.reduce((sum, line) => sum + (line[field] ?? 0), 0);

/** On a failed wait, show what the server said: these tests run on a shared, busy machine. */
function withServerLogs(error: unknown): never {
  console.error(server.logs().slice(-4000));
  throw error;
}

const sumOfSquares = (n: number) => (n * (n + 1) * (2 * n + 1)) / 6;

describe("batch_process with parallel: true", () => {
  it("returns the sequential run's text and structuredContent, with one step event per item", async ({ expect }) => {
    const parallelId = await startTask(server.url, "batch_process", { items: 40, secondsPerItem: 0.5, parallel: true });
    const sequentialId = await startTask(server.url, "batch_process", { items: 40, secondsPerItem: 0 });
    const [parallel, sequential] = [await taskResult(parallelId), await taskResult(sequentialId)];
    expect(parallel["content"]).toEqual([{ type: "text", text: "Processed 40 items." }]);
    expect(parallel["content"]).toEqual(sequential["content"]);
    expect(parallel["structuredContent"]).toEqual({ items: 40, checksum: sumOfSquares(40) });
    expect(parallel["structuredContent"]).toEqual(sequential["structuredContent"]);

    const log = await eventLog(parallelId);
    const steps = log.filter((e) => e.event === "step").map((e) => String(e.data["name"]));
    expect(steps.sort()).toEqual(Array.from({ length: 40 }, (_, i) => `processItem[${i}]`).sort());
    const progress = log.filter((e) => e.event === "progress").map((e) => Number(e.data["progress"]));
    expect(progress).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(log.filter((e) => e.event === "result")).toHaveLength(1);
  });

  it("runs each item once although the task sends queued ones again (duplicates), in whatever order they finish", async ({ expect }) => {
    const from = server.logs().length;
    // 150 items of 8 s: the 50 behind the first batch of 100 wait longer than LEASE_MS (3 s)
    // unclaimed, so the task's alarm sends them again while their first messages are still queued.
    const taskId = await startTask(server.url, "batch_process", { items: 150, secondsPerItem: 8, parallel: true });
    const result = await taskResult(taskId);
    expect(result["structuredContent"]).toEqual({ items: 150, checksum: sumOfSquares(150) });
    await vi.waitFor(() => expect(total(batchLines(from), "stored")).toBe(150), { timeout: 30_000, interval: 250 }).catch(withServerLogs);
    const lines = batchLines(from);
    expect(total(lines, "ran")).toBe(150);
    expect(total(lines, "skipped")).toBeGreaterThanOrEqual(1);
    expect(total(lines, "messages")).toBe(150 + total(lines, "skipped"));
    const log = await eventLog(taskId);
    expect(new Set(log.filter((e) => e.event === "step").map((e) => e.data["name"])).size).toBe(150);
    expect(log.filter((e) => e.event === "step")).toHaveLength(150);
    expect(log.filter((e) => e.event === "progress").map((e) => Number(e.data["progress"]))).toEqual(Array.from({ length: 150 }, (_, i) => i + 1));
  });

  it("stops on cancel: running items are aborted, queued ones acknowledged unrun, and no item finishes", async ({ expect }) => {
    const from = server.logs().length;
    // 150 items of 60 s: the first batch of 100 runs at once, the other 50 wait for the next batch.
    const taskId = await startTask(server.url, "batch_process", { items: 150, secondsPerItem: 60, parallel: true });
    await vi.waitFor(async () => expect((await getTask(server.url, taskId)).statusMessage).toMatch(/100 running/), { timeout: 30_000, interval: 200 }).catch(withServerLogs);
    const reply = await rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tasks/cancel", params: { taskId } });
    expect(reply.body).toMatchObject({ result: { status: "cancelled" } });

    // Every message is accounted for well before a 60 s item could have ended on its own.
    await vi.waitFor(() => expect(total(batchLines(from), "messages")).toBe(150), { timeout: 45_000, interval: 250 }).catch(withServerLogs);
    const lines = batchLines(from);
    expect(total(lines, "aborted")).toBe(100);
    expect(total(lines, "skipped")).toBe(50);
    expect(total(lines, "stored")).toBe(0);
    const log = await eventLog(taskId);
    expect(log.filter((e) => e.event === "step")).toEqual([]);
    expect((await getTask(server.url, taskId)).status).toBe("cancelled");
  });

  it("finishes after a SIGKILL mid-fan-out and a restart, each item completing once", async ({ expect }) => {
    // 250 items of 2 s run as three batches (100, 100, 50), one after another locally.
    const items = 250;
    const taskId = await startTask(server.url, "batch_process", { items, secondsPerItem: 2, parallel: true });
    await vi.waitFor(async () => expect((await getTask(server.url, taskId)).progress?.progress ?? 0).toBeGreaterThanOrEqual(100), { timeout: 60_000, interval: 100 }).catch(withServerLogs);
    const before = (await getTask(server.url, taskId)).progress?.progress ?? 0;
    await server.kill();
    await server.restart();

    // The killed queue's messages are gone: only the task's alarm, sending again what is outstanding, can finish this.
    await vi.waitFor(async () => expect((await getTask(server.url, taskId)).status).toBe("completed"), { timeout: 90_000, interval: 250 }).catch(withServerLogs);
    expect(before).toBeLessThan(items);
    const result = await taskResult(taskId);
    expect(result["structuredContent"]).toEqual({ items, checksum: sumOfSquares(items) });

    const log = await eventLog(taskId);
    const steps = log.filter((e) => e.event === "step").map((e) => String(e.data["name"]));
    expect(steps).toHaveLength(items);
    expect(new Set(steps).size).toBe(items);
    const progress = log.filter((e) => e.event === "progress").map((e) => Number(e.data["progress"]));
    expect(progress).toEqual(Array.from({ length: items }, (_, i) => i + 1));
    expect(log.filter((e) => e.event === "status" && e.data["status"] !== "working").map((e) => e.data["status"])).toEqual(["completed"]);
  });
});
