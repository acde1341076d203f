// A SIGKILL mid-fan-out on the real runtime: the local queue's messages are lost with the process,
// and the TaskObject's alarm sends the outstanding items again after the restart; every item is
// stored once and the job finishes.
import { beforeAll, describe, it, vi } from "vitest";
import { ownServer } from "./support/dev-server";
import { failWithLogs } from "./support/wrangler-dev";
import { eventLog, getTask, startTask } from "./support/tasks";
import { ofType, sumOfSquares, taskResult } from "./support/fan-out";
import { until } from "../until";

// It kills and restarts its server.
const server = ownServer({ vars: { LEASE_MS: "3000" } });

beforeAll(async () => {
  // A short lease, so the dead consumer's items are sent again seconds after the restart.
});

const withServerLogs = (error: unknown): never => failWithLogs(server, error);

describe("a crash of the runtime mid-fan-out", () => {
  it("finishes after the restart, each item completing once", async ({ expect }) => {
    // 250 items of 2 s run as three batches (100, 100, 50), one after another locally.
    const items = 250;
    const taskId = await startTask(server.url, "batch_process", { items, secondsPerItem: 2, parallel: true });
    await vi
      .waitFor(
        async () => expect((await getTask(server.url, taskId)).progress?.progress ?? 0).toBeGreaterThanOrEqual(100),
        until(100),
      )
      .catch(withServerLogs);
    const before = (await getTask(server.url, taskId)).progress?.progress ?? 0;
    await server.kill();
    await server.restart();

    // The killed queue's messages are gone: only the task's alarm, sending again what is outstanding, can finish this.
    await vi
      .waitFor(async () => expect((await getTask(server.url, taskId)).status).toBe("completed"), until(250))
      .catch(withServerLogs);
    expect(before).toBeLessThan(items);
    expect((await taskResult(server, taskId))["structuredContent"]).toEqual({
      summary: `Processed ${items} items.`,
      items,
      checksum: sumOfSquares(items),
    });

    const log = await eventLog(server.url, taskId);
    const steps = ofType(log, "step").map((e) => String(e.data["name"]));
    expect(steps).toHaveLength(items);
    expect(new Set(steps).size).toBe(items);
    expect(ofType(log, "progress").map((e) => Number(e.data["progress"]))).toEqual(
      Array.from({ length: items }, (_, i) => i + 1),
    );
    expect(
      ofType(log, "status")
        .filter((e) => e.data["status"] !== "working")
        .map((e) => e.data["status"]),
    ).toEqual(["completed"]);
  });
});
