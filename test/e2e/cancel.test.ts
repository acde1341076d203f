// Cancellation on the real runtime: tasks/cancel reaches the running job (countdown stops
// emitting progress at once) and a sleeping job is never woken to run again.
import { describe, it, vi } from "vitest";
import { sharedServer } from "./support/dev-server";
import { rpc } from "./support/mcp";
import { eventLog, getTask, startTask } from "./support/tasks";
import { until } from "../until";

const server = sharedServer();

const cancel = (taskId: string) =>
  rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tasks/cancel", params: { taskId } });

describe("tasks/cancel", () => {
  it("stops a running countdown: no progress follows the cancelled status", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 120 });
    await vi.waitFor(
      async () => expect((await getTask(server.url, taskId)).progress?.progress ?? 0).toBeGreaterThanOrEqual(2),
      until(200),
    );
    const reply = await cancel(taskId);
    expect(reply.body).toMatchObject({ result: { taskId, status: "cancelled" } });

    // The log ends with the result; a job still counting would have kept adding progress before it.
    const log = await eventLog(server.url, taskId);
    const cancelledAt = log.findIndex((e) => e.event === "status" && e.data["status"] === "cancelled");
    expect(cancelledAt).toBeGreaterThan(0);
    expect(log.slice(cancelledAt).map((e) => e.event)).toEqual(["status", "result"]);
    const result = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 3, method: "tasks/result", params: { taskId } },
      { headers: { Accept: "application/json" } },
    );
    expect(result.body).toMatchObject({
      result: { isError: true, content: [{ type: "text", text: expect.stringContaining("cancelled") }] },
    });
    // A second cancel is refused: the task is terminal.
    expect((await cancel(taskId)).body).toMatchObject({ error: { code: -32602 } });
  });

  it("cancels a job sleeping between polls; it is not woken to run again", async ({ expect }) => {
    const taskId = await startTask(server.url, "external_job", { durationSeconds: 3600, pollSeconds: 60 });
    await vi.waitFor(
      async () =>
        expect(String((await getTask(server.url, taskId)).statusMessage)).toMatch(
          /^Waiting until .*polling external job/,
        ),
      until(200),
    );
    expect((await cancel(taskId)).body).toMatchObject({ result: { status: "cancelled" } });
    const log = await eventLog(server.url, taskId);
    expect(log.filter((e) => e.event === "step").map((e) => e.data["name"])).toEqual(["submit", "poll-1"]);
    expect(log.at(-1)?.event).toBe("result");
    expect((await getTask(server.url, taskId)).status).toBe("cancelled");
  });
});
