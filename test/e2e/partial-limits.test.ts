// Partial results: the per-task limit (a clear error, nothing corrupted) and isolation (another
// principal sees none of a task's pieces, on any surface). docs/partial-results.md.
import { beforeAll, describe, it, vi } from "vitest";
import { ownServer } from "./support/dev-server";
import { rpc } from "./support/mcp";
import { modern, openStream, TASKS } from "./support/modern";
import { eventLog, startTask } from "./support/tasks";
import { until } from "../until";

// Its own limit (3 pieces) and two principals.
const server = ownServer({ vars: { API_KEYS: "alice:tokA,bob:tokB", PARTIAL_MAX_PIECES: "3" } });
const alice = { Authorization: "Bearer tokA" };
const bob = { Authorization: "Bearer tokB" };
const settle = until(150);
let taskId = "";

interface Doc {
  status: string;
  statusMessage?: string;
  result?: { content?: { text?: string }[]; isError?: boolean };
  error?: { message: string };
  partial?: { count: number; pieces?: { n: number; content: { text?: string } }[] };
}
const doc = async (id: string, headers: Record<string, string>, query = "") => {
  const response = await fetch(`${server.url}/tasks/${id}${query}`, { headers });
  return { status: response.status, body: (await response.json()) as Doc };
};

beforeAll(async () => {
  taskId = await startTask(server.url, "batch_process", { items: 5, secondsPerItem: 0 }, alice);
  await vi.waitFor(async () => {
    const { status } = (await doc(taskId, alice)).body;
    if (status === "working") throw new Error("still working");
  }, settle);
});

describe("the limit of partial output per task", () => {
  it("fails the job with a sentence naming the limit, and keeps the pieces recorded before it", async ({ expect }) => {
    const { body } = await doc(taskId, alice);
    expect(body.status).toBe("failed");
    expect(JSON.stringify(body)).toContain("a task holds at most 3; nothing more was published");
    expect(body.partial?.count).toBe(3);
    expect(body.partial?.pieces?.map((piece) => piece.content.text)).toEqual([
      "Item 1 of 5: 1.",
      "Item 2 of 5: 4.",
      "Item 3 of 5: 9.",
    ]);
    const log = await eventLog(server.url, taskId, alice);
    expect(log.filter((e) => e.event === "partial").map((e) => e.data["n"])).toEqual([1, 2, 3]);
  });
});

describe("another principal", () => {
  it("gets 404 from GET /tasks/{id}, with or without after, and from its events", async ({ expect }) => {
    expect((await doc(taskId, bob)).status).toBe(404);
    expect((await doc(taskId, bob, "?after=1")).status).toBe(404);
    expect((await fetch(`${server.url}/tasks/${taskId}/events`, { headers: bob })).status).toBe(404);
  });

  it("gets not found from resources/read of task://{id}?after=N and 2026 tasks/get, and no listen updates", async ({
    expect,
  }) => {
    const read = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 2, method: "resources/read", params: { uri: `task://${taskId}?after=1` } },
      { headers: bob },
    );
    expect(read.body).toMatchObject({ error: { code: -32602 } });
    expect(JSON.stringify(read.body)).not.toContain("Item 1");
    const got = await modern(server.url, "tasks/get", { taskId }, { capabilities: TASKS, headers: bob });
    expect(got.body).toMatchObject({ error: { code: -32602 } });
    const stream = await openStream(
      server.url,
      "subscriptions/listen",
      { notifications: { resourceSubscriptions: [`task://${taskId}`] } },
      { capabilities: TASKS, headers: bob },
    );
    await stream.ended;
    expect(JSON.stringify(stream.messages)).not.toContain("Item 1");
    expect(stream.messages.filter((m) => m["method"] === "notifications/resources/updated")).toEqual([]);
  });
});
