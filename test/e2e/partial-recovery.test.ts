// Partial results across a SIGKILL of the runtime (docs/partial-results.md): a job resumed through
// its memoized steps re-runs its publishes, and each piece is still recorded exactly once, in order;
// the same for a Workflow-backed tool, whose replay skips the steps that published.
import { describe, it, vi } from "vitest";
import { ownServer } from "./support/dev-server";
import { failWithLogs } from "./support/wrangler-dev";
import { postInput, waitForStatus } from "./support/hitl";
import { startPublish, YES } from "./support/workflows";
import { eventLog, startTask, type LoggedEvent } from "./support/tasks";
import { until } from "../until";

// It kills and restarts its server.
// WORKFLOW_NUDGE as `npm run dev` sets it: the local engine leaves a running instance stalled after a crash.
const server = ownServer({ vars: { LEASE_MS: "3000", WORKFLOW_CHECK_SECONDS: "2", WORKFLOW_NUDGE: "true" } });
const settle = until(100);
const withServerLogs = (error: unknown): never => failWithLogs(server, error);

interface Doc {
  status: string;
  partial?: { count: number; pieces?: { n: number; content: { text?: string } }[] };
}
const doc = async (taskId: string): Promise<Doc> =>
  (await fetch(`${server.url}/tasks/${taskId}`)).json() as Promise<Doc>;
const partialEvents = (log: LoggedEvent[]) => log.filter((e) => e.event === "partial").map((e) => e.data);
const asPieces = (texts: string[]) => texts.map((text, i) => ({ n: i + 1, content: { type: "text", text } }));

describe("partial results across a crash", () => {
  it("batch_process: every item's piece once and in order, though the resumed run publishes them again", async ({
    expect,
  }) => {
    const taskId = await startTask(server.url, "batch_process", { items: 6, secondsPerItem: 1 });
    let before = 0;
    await vi
      .waitFor(async () => {
        before = (await doc(taskId)).partial?.count ?? 0;
        expect(before).toBeGreaterThanOrEqual(2);
      }, settle)
      .catch(withServerLogs);
    await server.kill();
    await server.restart();

    await vi.waitFor(async () => expect((await doc(taskId)).status).toBe("completed"), settle).catch(withServerLogs);
    const expected = asPieces(Array.from({ length: 6 }, (_, i) => `Item ${i + 1} of 6: ${(i + 1) ** 2}.`));
    expect((await doc(taskId)).partial).toMatchObject({ count: 6, pieces: expected });
    const log = await eventLog(server.url, taskId);
    expect(partialEvents(log)).toEqual(expected);
    // The crash did interrupt the run: it was resumed by its lease's expiry.
    expect(log.filter((e) => e.event === "log" && String(e.data["message"]).startsWith("Lease expired"))).toHaveLength(
      1,
    );
  });

  it("publish_report: one piece per page, once, across the crash", async ({ expect }) => {
    const pages = 20;
    const taskId = await startPublish(server.url, pages);
    await vi
      .waitFor(async () => expect((await doc(taskId)).partial?.count ?? 0).toBeGreaterThanOrEqual(3), settle)
      .catch(withServerLogs);
    await server.kill();
    await server.restart();

    await waitForStatus(server.url, taskId, "input_required").catch(withServerLogs);
    expect((await postInput(server.url, taskId, { publish: YES })).status).toBe(200);
    await waitForStatus(server.url, taskId, "completed").catch(withServerLogs);
    const expected = asPieces(Array.from({ length: pages }, (_, i) => `Page ${i + 1} of ${pages} built.`));
    expect((await doc(taskId)).partial).toMatchObject({ count: pages, pieces: expected });
    expect(partialEvents(await eventLog(server.url, taskId))).toEqual(expected);
  });
});
