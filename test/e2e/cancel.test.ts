// Cancellation on the real runtime: tasks/cancel reaches the running job (countdown stops
// emitting progress at once) and a sleeping job is never woken to run again.
import { describe, it, vi } from "vitest";
import { sharedServer } from "./support/dev-server";
import { parseSse, rpc } from "./support/mcp";

const server = sharedServer();

async function startTask(name: string, args: Record<string, unknown>): Promise<string> {
  const reply = await rpc(server.url, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name, arguments: args, task: {} } });
  const taskId = (reply.body as { result?: { task?: { taskId?: string } } }).result?.task?.taskId;
  if (!taskId) throw new Error(`no task created: ${reply.text}`);
  return taskId;
}

async function taskDoc(taskId: string): Promise<Record<string, unknown>> {
  return (await (await fetch(`${server.url}/tasks/${taskId}`)).json()) as Record<string, unknown>;
}

async function eventLog(taskId: string): Promise<{ event: string; data: Record<string, unknown> }[]> {
  const response = await fetch(`${server.url}/tasks/${taskId}/events`);
  return parseSse(await response.text()).map((e) => ({ event: e.event ?? "", data: JSON.parse(e.data) as Record<string, unknown> }));
}

const cancel = (taskId: string) => rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tasks/cancel", params: { taskId } });

describe("tasks/cancel", () => {
  it("stops a running countdown: no progress follows the cancelled status", async ({ expect }) => {
    const taskId = await startTask("countdown", { seconds: 120 });
    await vi.waitFor(async () => expect(((await taskDoc(taskId))["progress"] as { progress: number } | undefined)?.progress ?? 0).toBeGreaterThanOrEqual(2), {
      timeout: 30_000,
      interval: 200,
    });
    const reply = await cancel(taskId);
    expect(reply.body).toMatchObject({ result: { taskId, status: "cancelled" } });

    // The log ends with the result; a job still counting would have kept adding progress before it.
    const log = await eventLog(taskId);
    const cancelledAt = log.findIndex((e) => e.event === "status" && e.data["status"] === "cancelled");
    expect(cancelledAt).toBeGreaterThan(0);
    expect(log.slice(cancelledAt).map((e) => e.event)).toEqual(["status", "result"]);
    const result = await rpc(server.url, { jsonrpc: "2.0", id: 3, method: "tasks/result", params: { taskId } }, { headers: { Accept: "application/json" } });
    expect(result.body).toMatchObject({ result: { isError: true, content: [{ type: "text", text: expect.stringContaining("cancelled") }] } });
    // A second cancel is refused: the task is terminal.
    expect((await cancel(taskId)).body).toMatchObject({ error: { code: -32602 } });
  });

  it("cancels a job sleeping between polls; it is not woken to run again", async ({ expect }) => {
    const taskId = await startTask("external_job", { durationSeconds: 3600, pollSeconds: 60 });
    await vi.waitFor(async () => expect(String((await taskDoc(taskId))["statusMessage"])).toMatch(/^Waiting until .*polling external job/), { timeout: 30_000, interval: 200 });
    expect((await cancel(taskId)).body).toMatchObject({ result: { status: "cancelled" } });
    const log = await eventLog(taskId);
    expect(log.filter((e) => e.event === "step").map((e) => e.data["name"])).toEqual(["submit", "poll-1"]);
    expect(log.at(-1)?.event).toBe("result");
    expect((await taskDoc(taskId))["status"]).toBe("cancelled");
  });
});
