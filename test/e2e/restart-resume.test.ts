// A deploy or crash mid-job costs no lease wait: SIGKILL wrangler dev while a job runs, restart it
// on the same state, and the job's next event follows the new server's first request to its task.
// The lease is ten minutes here, far past the hang guard (test/until.ts): a job that waited for it
// would fail this test instead of passing it late.
import { describe, it, vi } from "vitest";
import { ownServer } from "./support/dev-server";
import { failWithLogs } from "./support/wrangler-dev";
import { eventLog, getTask, startTask, type LoggedEvent } from "./support/tasks";
import { until } from "../until";

// It kills and restarts its server.
const server = ownServer({ vars: { LEASE_MS: "600000" } });

const withServerLogs = (error: unknown): never => failWithLogs(server, error);

const progressValues = (log: LoggedEvent[]): number[] =>
  log.filter((e) => e.event === "progress").map((e) => Number(e.data["progress"]));

describe("a restart of the runtime mid-job", () => {
  it("resumes the job at the new server's first request, not when its lease runs out", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 30 });
    let before = 0;
    await vi
      .waitFor(async () => {
        before = (await getTask(server.url, taskId)).progress?.progress ?? 0;
        expect(before).toBeGreaterThanOrEqual(2);
      }, until(200))
      .catch(withServerLogs);
    await server.kill();
    await server.restart();

    // The first request builds the task's object anew, which finds the dead run's lease.
    await vi
      .waitFor(async () => {
        expect((await getTask(server.url, taskId)).progress?.progress ?? 0).toBeGreaterThan(before);
      }, until(200))
      .catch(withServerLogs);
    await vi
      .waitFor(async () => expect((await getTask(server.url, taskId)).status).toBe("completed"), until(250))
      .catch(withServerLogs);

    const log = await eventLog(server.url, taskId);
    const values = progressValues(log);
    expect(values).toEqual([...new Set(values)].sort((a, b) => a - b));
    expect(values.at(-1)).toBe(30);
    const recoveries = log.filter((e) => e.event === "log" && String(e.data["message"]).startsWith("Lease expired"));
    expect(recoveries).toHaveLength(1);
    expect(log.filter((e) => e.event === "result")).toHaveLength(1);
  });
});
