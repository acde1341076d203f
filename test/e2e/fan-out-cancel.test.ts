// Cancelling a fan-out on the real runtime: running items see their signal abort (the consumer's
// heartbeat learns of the cancel), queued ones are acknowledged without running, nothing is stored.
import { describe, it, vi } from "vitest";
import { ownServer } from "./support/dev-server";
import { failWithLogs } from "./support/wrangler-dev";
import { rpc } from "./support/mcp";
import { eventLog, getTask, startTask } from "./support/tasks";
import { batchLines, ofType, total } from "./support/fan-out";
import { until } from "../until";

// It reads the server's output, so the server is its own.
const server = ownServer();

const withServerLogs = (error: unknown): never => failWithLogs(server, error);

describe("tasks/cancel of a fanned-out batch_process", () => {
  it("aborts the running items and acknowledges the queued ones unrun; no item finishes", async ({ expect }) => {
    // 150 items of 60 s: the first batch runs at once, the rest wait for the next batch.
    const taskId = await startTask(server.url, "batch_process", { items: 150, secondsPerItem: 60, parallel: true });
    await vi
      .waitFor(
        async () => expect((await getTask(server.url, taskId)).statusMessage).toMatch(/[1-9]\d* running/),
        until(200),
      )
      .catch(withServerLogs);
    const reply = await rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tasks/cancel", params: { taskId } });
    expect(reply.body).toMatchObject({ result: { status: "cancelled" } });

    // Every message is accounted for well before a 60 s item could have ended on its own.
    await vi.waitFor(() => expect(total(batchLines(server), "messages")).toBe(150), until(250)).catch(withServerLogs);
    const lines = batchLines(server);
    expect(total(lines, "aborted")).toBeGreaterThanOrEqual(1);
    expect(total(lines, "aborted") + total(lines, "skipped")).toBe(150);
    expect(total(lines, "stored")).toBe(0);
    expect(ofType(await eventLog(server.url, taskId), "step")).toEqual([]);
    expect((await getTask(server.url, taskId)).status).toBe("cancelled");
  });
});
