// publish_report's Workflow instance is terminated whenever its task ends early: a cancel while it
// builds, a cancel while it waits for the answer, the ttl running out. (Split from workflows.test.ts
// so the two halves run side by side.)
import { describe, it, vi } from "vitest";
import { sharedServer } from "./support/dev-server";
import { failWithLogs } from "./support/wrangler-dev";
import { waitForStatus } from "./support/hitl";
import { rpc } from "./support/mcp";
import { getTask, modern, resultOf, TASKS, startTask } from "./support/modern";
import { eventLog } from "./support/tasks";
import { instanceStatus, progressOf, startPublish, taskDoc } from "./support/workflows";
import { until } from "../until";

const server = sharedServer();
const settle = until(100);

const withServerLogs = (error: unknown): never => failWithLogs(server, error);

describe("cancel", () => {
  it("terminates the instance while it builds, and no page is reported after", async ({ expect }) => {
    const taskId = await startPublish(server.url, 50);
    await vi.waitFor(
      async () => expect((await taskDoc(server.url, taskId)).progress?.progress ?? 0).toBeGreaterThanOrEqual(2),
      settle,
    );
    expect((await fetch(`${server.url}/tasks/${taskId}/cancel`, { method: "POST" })).status).toBe(200);
    await vi.waitFor(async () => expect((await instanceStatus(server.port, taskId)).status).toBe("terminated"), settle);
    const cancelled = await taskDoc(server.url, taskId);
    expect(cancelled.status).toBe("cancelled");
    const events = await eventLog(server.url, taskId);
    const end = events.findIndex((e) => e.event === "status" && e.data["status"] === "cancelled");
    expect(events.slice(end + 1).filter((e) => e.event === "progress" || e.event === "step")).toEqual([]);
    expect(progressOf(events).at(-1)).toBeLessThan(50);
  });

  it("terminates the instance while it waits for the answer (tasks/cancel, 2026)", async ({ expect }) => {
    const taskId = await startTask(server.url, "publish_report", { pages: 1 });
    await vi.waitFor(async () => expect((await getTask(server.url, taskId))["status"]).toBe("input_required"), settle);
    resultOf(await modern(server.url, "tasks/cancel", { taskId }, { capabilities: TASKS }));
    await vi.waitFor(async () => expect((await instanceStatus(server.port, taskId)).status).toBe("terminated"), settle);
    expect((await taskDoc(server.url, taskId)).status).toBe("cancelled");
  });

  it("terminates the instance when the task's ttl runs out while it waits; the task is gone", async ({ expect }) => {
    const reply = await rpc(server.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "publish_report", arguments: { pages: 1 }, task: { ttl: 4000 } },
    });
    const taskId = (reply.body as { result: { task: { taskId: string } } }).result.task.taskId;
    await waitForStatus(server.url, taskId, "input_required").catch(withServerLogs);
    await vi.waitFor(async () => expect((await fetch(`${server.url}/tasks/${taskId}`)).status).toBe(404), settle);
    await vi.waitFor(async () => expect((await instanceStatus(server.port, taskId)).status).toBe("terminated"), settle);
  });
});
