// The task transition log on a real `wrangler dev`: what `wrangler tail` would show, read from the
// dev server's output. One JSON line per status change, with a fixed set of fields and nothing else,
// printed one console call per line (TRANSITION_LOG "lines", deployed) or batched (`npm run dev`).
import { describe, it, vi } from "vitest";
import { ownServer } from "./support/dev-server";
import { rpc } from "./support/mcp";
import { startTask } from "./support/tasks";
import { until } from "../until";

// It reads the servers' output, so they are its own.
const server = ownServer();
const batchedServer = ownServer({ vars: { TRANSITION_LOG: "batched" } });
const CORRELATION_ID = "corr-must-not-be-logged";
const FIELDS = ["durationMs", "event", "phase", "runs", "status", "taskId", "tool"];

/** Every task here carries a correlation id, which the log must not show. */
const startCorrelated = (name: string, args: Record<string, unknown>, on = server) =>
  startTask(on.url, name, args, {}, { "mcp-task-worker/correlation-id": CORRELATION_ID });

/** The transition lines the dev server printed, parsed; a line that is not JSON fails the test. */
function transitions(on = server): Record<string, unknown>[] {
  return on
    .logs()
    .split("\n")
    .filter((line) => line.includes('"task.transition"'))
    .map((line) => JSON.parse(line.trim()) as Record<string, unknown>);
}

const of = (taskId: string, on = server) => transitions(on).filter((line) => line["taskId"] === taskId);

describe("task transition log", () => {
  it("prints one line per status change of a task, from queued to completed, with growing durations", async ({
    expect,
  }) => {
    const taskId = await startCorrelated("batch_process", { items: 2, secondsPerItem: 0.123457 });
    await vi.waitFor(() => expect(of(taskId).at(-1)?.["status"]).toBe("completed"), until(200));
    const lines = of(taskId);
    expect(lines.map((l) => [l["status"], l["phase"], l["runs"]])).toEqual([
      ["working", "queued", 0],
      ["working", "running", 1],
      ["completed", "done", 1],
    ]);
    expect(lines.every((l) => l["event"] === "task.transition" && l["tool"] === "batch_process")).toBe(true);
    const durations = lines.map((l) => Number(l["durationMs"]));
    expect(durations).toEqual([...durations].sort((a, b) => a - b));
    // Two items of 0.123457 s each: the completion comes at least that long after creation.
    expect(durations.at(-1)).toBeGreaterThanOrEqual(246);
  });

  it("logs a cancellation as the task's last line", async ({ expect }) => {
    const taskId = await startCorrelated("countdown", { seconds: 120 });
    await vi.waitFor(() => expect(of(taskId).map((l) => l["phase"])).toContain("running"), until(200));
    await rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tasks/cancel", params: { taskId } });
    await vi.waitFor(
      () => expect(of(taskId).at(-1)).toMatchObject({ status: "cancelled", phase: "done", tool: "countdown" }),
      until(200),
    );
  });

  it("carries only its fixed fields: no arguments, results, messages or request metadata", async ({ expect }) => {
    const taskId = await startCorrelated("batch_process", { items: 1, secondsPerItem: 0.654321 });
    await vi.waitFor(() => expect(of(taskId).at(-1)?.["status"]).toBe("completed"), until(200));
    for (const line of of(taskId)) expect(Object.keys(line).sort()).toEqual(FIELDS);
    const text = server
      .logs()
      .split("\n")
      .filter((line) => line.includes(taskId))
      .join("\n");
    for (const leak of ["0.654321", "Processed", CORRELATION_ID, "Queued.", "Running.", "Completed."])
      expect(text).not.toContain(leak);
  });

  it("batched (npm run dev): the same lines, each on its own line of the terminal, in order per task", async ({
    expect,
  }) => {
    const taskIds = await Promise.all(
      Array.from({ length: 8 }, () =>
        startCorrelated("batch_process", { items: 1, secondsPerItem: 0.2 }, batchedServer),
      ),
    );
    await vi.waitFor(
      () =>
        expect(taskIds.map((id) => of(id, batchedServer).at(-1)?.["status"])).toEqual(taskIds.map(() => "completed")),
      until(200),
    );
    for (const taskId of taskIds) {
      const lines = of(taskId, batchedServer);
      expect(lines.map((l) => [l["status"], l["phase"], l["runs"]])).toEqual([
        ["working", "queued", 0],
        ["working", "running", 1],
        ["completed", "done", 1],
      ]);
      for (const line of lines) expect(Object.keys(line).sort()).toEqual(FIELDS);
    }
  });
});
