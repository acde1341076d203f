// Crash recovery on the real runtime: SIGKILL wrangler dev while jobs run, restart it on
// the same state directory, and check that the TaskObjects' alarms finish every job,
// resuming through memoized steps (local dev loses queue messages on a crash; alarms survive).
import { describe, it, vi } from "vitest";
import { ownServer } from "./support/dev-server";
import { failWithLogs } from "./support/wrangler-dev";
import { rpc } from "./support/mcp";
import { eventLog, getTask, startTask, type LoggedEvent } from "./support/tasks";
import { until } from "../until";

// It kills and restarts its server.
const server = ownServer({ vars: { LEASE_MS: "3000" } });

const withServerLogs = (error: unknown): never => failWithLogs(server, error);

const progressValues = (log: LoggedEvent[]): number[] =>
  log.filter((e) => e.event === "progress").map((e) => Number(e.data["progress"]));

describe("a crash of the runtime mid-job", () => {
  it("recovers both jobs from the TaskObjects' alarms, running each step once", async ({ expect }) => {
    const countdownId = await startTask(server.url, "countdown", { seconds: 8 });
    const batchId = await startTask(server.url, "batch_process", { items: 6, secondsPerItem: 1 });

    // Let both get well into their run, so the crash interrupts real work.
    await vi
      .waitFor(async () => {
        const [countdown, batch] = [await getTask(server.url, countdownId), await getTask(server.url, batchId)];
        expect(countdown.progress?.progress ?? 0).toBeGreaterThanOrEqual(2);
        expect(batch.progress?.progress ?? 0).toBeGreaterThanOrEqual(2);
      }, until(200))
      .catch(withServerLogs);
    await server.kill();
    await server.restart();

    // Nothing re-sends the queue messages: the objects themselves finish these, resumed by the first
    // request each gets (the polls below) or at the latest by the alarm armed at its lease's end.
    await vi
      .waitFor(async () => {
        expect((await getTask(server.url, countdownId)).status).toBe("completed");
        expect((await getTask(server.url, batchId)).status).toBe("completed");
      }, until(250))
      .catch(withServerLogs);

    const batchLog = await eventLog(server.url, batchId);
    const steps = batchLog.filter((e) => e.event === "step").map((e) => e.data["name"]);
    expect(steps).toEqual(["item-1", "item-2", "item-3", "item-4", "item-5", "item-6"]);
    expect(progressValues(batchLog)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(batchLog.filter((e) => e.event === "result")).toHaveLength(1);
    expect(batchLog.at(-1)?.data).toMatchObject({ structuredContent: { items: 6, checksum: 91 } });

    const countdownLog = await eventLog(server.url, countdownId);
    expect(progressValues(countdownLog)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(countdownLog.filter((e) => e.event === "result")).toHaveLength(1);

    // Both were restarted by lease expiry (the log says so once), not run twice at once.
    for (const log of [batchLog, countdownLog]) {
      const recoveries = log.filter((e) => e.event === "log" && String(e.data["message"]).startsWith("Lease expired"));
      expect(recoveries).toHaveLength(1);
      const terminal = log.filter((e) => e.event === "status" && e.data["status"] !== "working");
      expect(terminal.map((e) => e.data["status"])).toEqual(["completed"]);
    }
  });

  it("leaves no task working", async ({ expect }) => {
    const reply = await rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tasks/list", params: {} });
    const tasks = (reply.body as { result: { tasks: { taskId: string; status: string }[] } }).result.tasks;
    expect(tasks.length).toBeGreaterThanOrEqual(2);
    expect(tasks.filter((t) => t.status === "working")).toEqual([]);
  });
});
