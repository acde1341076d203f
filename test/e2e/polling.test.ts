/**
 * The poll interval on the wire (docs/polling.md): a 2026-07-28 client that polls `tasks/get` only
 * at the `pollIntervalMs` it is told, as interactive Claude Code does, sees a 3-s countdown end soon
 * after it happens and asks a few times; a 2025-11-25 `tasks/get` tells a long interval to a task
 * far from done. The 90-s follower is in the bench (`npm run bench -- polling`).
 */
import { describe, it, vi } from "vitest";
import { rpc } from "./support/mcp";
import { startTask as startLegacyTask } from "./support/tasks";
import { followTask } from "./support/poll-follower";
import { ownServer } from "./support/dev-server";
import { until } from "../until";

// Its lateness bound is timing: the server is its own, so other files' tasks do not load it.
const server = ownServer();
const settle = until(200);

describe("a 2026 client polling at the interval it is told", () => {
  it("sees a 3-s countdown end within 1.5 s, in at most 8 tasks/get", async ({ expect }) => {
    const followed = await followTask(server.url, 3);
    expect(followed.status).toBe("completed");
    // The lateness of the poll's start, which the intervals decide (not the machine's load on the reply).
    expect(followed.lateMs).toBeLessThanOrEqual(1500);
    expect(followed.gets).toBeLessThanOrEqual(8);
    // The first look comes soon (a new task is told the floor), and no interval is shorter.
    expect(followed.told[0]).toBe(500);
    expect(Math.min(...followed.told)).toBeGreaterThanOrEqual(500);
  });
});

describe("2025-11-25 tasks/get", () => {
  it("tells a long interval to a task far from its end", async ({ expect }) => {
    const taskId = await startLegacyTask(server.url, "countdown", { seconds: 600 });
    const pollInterval = async (): Promise<number> => {
      const reply = await rpc(server.url, { jsonrpc: "2.0", id: 2, method: "tasks/get", params: { taskId } });
      return Number((reply.body as { result?: { pollInterval?: unknown } } | undefined)?.result?.pollInterval);
    };
    // Once the first progress gives a pace: ~600 s left, so the cap of a minute.
    await vi.waitFor(async () => expect(await pollInterval()).toBe(60_000), settle);
    await rpc(server.url, { jsonrpc: "2.0", id: 3, method: "tasks/cancel", params: { taskId } });
  });
});
