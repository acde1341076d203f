/**
 * The task protocol on the real runtime (wrangler dev), driven by the SDK's Client:
 * tasks/get, tasks/result, tasks/list pages, tasks/cancel, TTL expiry, the plain HTTP
 * view of a task and its event stream, and tasks that do not wait for each other.
 */
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  McpError,
  type CreateTaskResult,
} from "@modelcontextprotocol/sdk/types.js";
import { sharedServer } from "./support/dev-server";
import { KEYED_TOKENS, KEYED_VARS } from "./support/server-settings";
import { connectClient, parseSse, rpc } from "./support/mcp";
import { taskResponse } from "./support/tasks";
import { until } from "../until";

// It lists its principal's tasks (and pages through them): a principal of its own on a shared server.
const server = sharedServer(KEYED_VARS);
const auth = { Authorization: `Bearer ${KEYED_TOKENS.tasks}` };
let client: Client;
const settle = until(200);

beforeAll(async () => {
  client = await connectClient(server.url, { headers: auth });
});

afterAll(async () => {
  await client?.close();
});

async function createTask(
  name: string,
  args: Record<string, unknown>,
  ttl?: number,
): Promise<CreateTaskResult["task"]> {
  const result = await client.request(
    { method: "tools/call", params: { name, arguments: args, task: ttl === undefined ? {} : { ttl } } },
    CreateTaskResultSchema,
  );
  return result.task;
}

async function expectInvalidParams(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof McpError)) throw new Error(`expected an McpError, got ${String(error)}`);
  if (error.code !== -32602) throw new Error(`expected -32602, got ${error.code}: ${error.message}`);
  return error;
}

const UNKNOWN = "0123456789abcdef0123456789abcdef";

describe("tools/call with params.task", () => {
  it("answers CreateTaskResult with a 128-bit id, working status, timestamps, ttl and pollInterval", async ({
    expect,
  }) => {
    const task = await createTask("countdown", { seconds: 1 }, 120_000);
    expect(task.taskId).toMatch(/^[0-9a-f]{32}$/);
    expect(task).toMatchObject({ status: "working", ttl: 120_000, pollInterval: 500 });
    expect(Number.isNaN(Date.parse(task.createdAt))).toBe(false);
    expect(Number.isNaN(Date.parse(task.lastUpdatedAt))).toBe(false);
  });

  it("caps a requested ttl at MAX_TTL_MS", async ({ expect }) => {
    const task = await createTask("countdown", { seconds: 1 }, 10 ** 12);
    expect(task.ttl).toBe(604_800_000);
  });
});

describe("tasks/get and tasks/result", () => {
  it("tasks/get follows the task from working to completed", async ({ expect }) => {
    const task = await createTask("countdown", { seconds: 1 });
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("working");
    await vi.waitFor(
      async () => expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("completed"),
      settle,
    );
  });

  it("tasks/result blocks until the end and returns exactly the tool's result with related-task _meta", async ({
    expect,
  }) => {
    const task = await createTask("batch_process", { items: 3, secondsPerItem: 0.3 });
    const result = await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    expect(result).toEqual({
      content: [{ type: "text", text: "Processed 3 items." }],
      structuredContent: { summary: "Processed 3 items.", items: 3, checksum: 14 },
      _meta: { "io.modelcontextprotocol/related-task": { taskId: task.taskId } },
    });
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("completed");
    // A second tasks/result of the finished task answers at once with the same result.
    expect(await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema)).toEqual(result);
  });

  it("unknown or malformed task ids are -32602 for get, result and cancel", async () => {
    for (const taskId of [UNKNOWN, "not-a-task", ""]) {
      await expectInvalidParams(client.experimental.tasks.getTask(taskId));
      await expectInvalidParams(client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema));
      await expectInvalidParams(client.experimental.tasks.cancelTask(taskId));
    }
  });
});

describe("tasks/list", () => {
  it("pages through every task once with nextCursor", async ({ expect }) => {
    const created = new Set<string>();
    // More than one server page (50), so the cursor is exercised.
    const batch = await Promise.all(Array.from({ length: 55 }, () => createTask("countdown", { seconds: 1 })));
    for (const task of batch) created.add(task.taskId);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.experimental.tasks.listTasks(cursor);
      seen.push(...page.tasks.map((t) => t.taskId));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined && pages < 100);
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of created) expect(seen).toContain(id);
  });

  it("lists a task with the same createdAt and ttl as tasks/get and CreateTaskResult", async ({ expect }) => {
    const made = await createTask("countdown", { seconds: 1 });
    const listed = (await client.experimental.tasks.listTasks()).tasks.find((t) => t.taskId === made.taskId);
    const got = await client.experimental.tasks.getTask(made.taskId);
    expect(listed?.createdAt).toBe(made.createdAt);
    expect(got.createdAt).toBe(made.createdAt);
    expect(listed?.ttl).toBe(got.ttl);
  });
});

describe("a plain tools/call of a task-capable tool", () => {
  it("is a task that tasks/list shows, finished, as soon as the call has answered", async ({ expect }) => {
    // A call that ends in its first moments answers before its task is written (docs/architecture.md);
    // the list must agree with the answer all the same, every time.
    for (let i = 0; i < 5; i++) {
      const result = await client.callTool({ name: "batch_process", arguments: { items: 1, secondsPerItem: 0 } });
      const related = result._meta?.["io.modelcontextprotocol/related-task"] as { taskId?: string } | undefined;
      expect(related?.taskId).toMatch(/^[0-9a-f]{32}$/);
      const listed = (await client.experimental.tasks.listTasks()).tasks.find((t) => t.taskId === related?.taskId);
      expect(listed?.status).toBe("completed");
    }
  });
});

describe("tasks/cancel", () => {
  it("cancels a running countdown: status cancelled, its progress stops, and a second cancel is -32602", async ({
    expect,
  }) => {
    const task = await createTask("countdown", { seconds: 60 });
    await vi.waitFor(
      async () =>
        expect(
          ((await taskResponse(server.url, task.taskId, auth)).body["progress"] as { progress?: number } | undefined)
            ?.progress ?? 0,
        ).toBeGreaterThanOrEqual(1),
      settle,
    );
    const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled.status).toBe("cancelled");
    const frozen = (await taskResponse(server.url, task.taskId, auth)).body["progress"];
    // The job's signal ends the run; the event log shows no progress after the cancellation.
    const events = await readEvents(task.taskId);
    const cancelAt = events.findIndex((e) => e.event === "status" && JSON.parse(e.data).status === "cancelled");
    expect(cancelAt).toBeGreaterThan(0);
    expect(events.slice(cancelAt).map((e) => e.event)).toEqual(["status", "result"]);
    // A second countdown ticks a full second meanwhile: a countdown still running would have ticked too.
    const witness = await createTask("countdown", { seconds: 1 });
    await client.experimental.tasks.getTaskResult(witness.taskId, CallToolResultSchema);
    expect((await taskResponse(server.url, task.taskId, auth)).body["progress"]).toEqual(frozen);
    expect((await client.experimental.tasks.getTask(task.taskId)).status).toBe("cancelled");
    const error = await expectInvalidParams(client.experimental.tasks.cancelTask(task.taskId));
    expect(error.message).toMatch(/already cancelled/);
  });

  it("tasks/result of a cancelled task returns its cancellation result", async ({ expect }) => {
    const task = await createTask("countdown", { seconds: 60 });
    const pending = client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    await client.experimental.tasks.cancelTask(task.taskId);
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result._meta).toMatchObject({ "io.modelcontextprotocol/related-task": { taskId: task.taskId } });
  });

  it("a finished task cannot be cancelled", async () => {
    const task = await createTask("countdown", { seconds: 1 });
    await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    await expectInvalidParams(client.experimental.tasks.cancelTask(task.taskId));
  });
});

async function readEvents(taskId: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${server.url}/tasks/${taskId}/events`, { headers: { ...auth, ...headers } });
  if (response.status !== 200) throw new Error(`events: HTTP ${response.status}`);
  // text() resolves only when the server ends the stream.
  return parseSse(await response.text());
}

describe("the plain HTTP view", () => {
  it("GET /tasks/{id} returns the task document with progress and, once done, the result", async ({ expect }) => {
    const task = await createTask("countdown", { seconds: 1 });
    await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    const { status, body } = await taskResponse(server.url, task.taskId, auth);
    expect(status).toBe(200);
    expect(body).toMatchObject({
      taskId: task.taskId,
      status: "completed",
      tool: "countdown",
      ttl: task.ttl,
      pollInterval: 1000,
      progress: { progress: 1, total: 1 },
      result: { content: [{ type: "text", text: "Countdown of 1 s finished." }] },
    });
  });

  it("GET /tasks/{id}/events streams named events with routable ids and ends after the result", async ({ expect }) => {
    const task = await createTask("batch_process", { items: 2, secondsPerItem: 0.2 });
    const response = await fetch(`${server.url}/tasks/${task.taskId}/events`, { headers: auth });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^text\/event-stream/);
    const events = parseSse(await response.text());
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("status");
    expect(names[names.length - 1]).toBe("result");
    expect(new Set(names)).toEqual(new Set(["status", "step", "partial", "progress", "result"]));
    expect(events.filter((e) => e.event === "step").map((e) => JSON.parse(e.data))).toEqual([
      { name: "item-1" },
      { name: "item-2" },
    ]);
    expect(events.filter((e) => e.event === "progress").map((e) => JSON.parse(e.data).progress)).toEqual([1, 2]);
    expect(JSON.parse(events[events.length - 1]?.data ?? "{}")).toMatchObject({
      structuredContent: { items: 2, checksum: 5 },
    });
    const seqs = events.map((e) => {
      const match = new RegExp(`^t\\.${task.taskId}\\.0\\.(\\d+)$`).exec(e.id ?? "");
      return Number(match?.[1]);
    });
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(seqs.every((s) => Number.isInteger(s) && s > 0)).toBe(true);

    // Resuming with Last-Event-ID replays exactly what followed that event.
    const resumeFrom = events[1]?.id ?? "";
    const resumed = await readEvents(task.taskId, { "Last-Event-ID": resumeFrom });
    expect(resumed.map((e) => e.id)).toEqual(events.slice(2).map((e) => e.id));
  });

  it("answers 404 for an unknown task and 400 for a foreign Last-Event-ID", async ({ expect }) => {
    expect((await fetch(`${server.url}/tasks/${UNKNOWN}`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${server.url}/tasks/${UNKNOWN}/events`, { headers: auth })).status).toBe(404);
    expect((await fetch(`${server.url}/tasks/nope`, { headers: auth })).status).toBe(404);
    const task = await createTask("countdown", { seconds: 1 });
    const bad = await fetch(`${server.url}/tasks/${task.taskId}/events`, {
      headers: { ...auth, "Last-Event-ID": `t.${UNKNOWN}.0.3` },
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ error: "bad_last_event_id" });
  });
});

describe("TTL", () => {
  it("after its ttl a task is gone: tasks/get is -32602, GET is 404, and tasks/list drops it", async ({ expect }) => {
    const task = await createTask("countdown", { seconds: 1 }, 2500);
    expect(task.ttl).toBe(2500);
    await client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
    await vi.waitFor(async () => expect((await taskResponse(server.url, task.taskId, auth)).status).toBe(404), settle);
    await expectInvalidParams(client.experimental.tasks.getTask(task.taskId));
    await expectInvalidParams(client.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema));
    expect((await fetch(`${server.url}/tasks/${task.taskId}/events`, { headers: auth })).status).toBe(404);
    const read = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "resources/read", params: { uri: `task://${task.taskId}` } },
      { headers: auth },
    );
    expect(read.body).toMatchObject({ error: { code: -32602 } });
    await vi.waitFor(async () => {
      const ids: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.experimental.tasks.listTasks(cursor);
        ids.push(...page.tasks.map((t) => t.taskId));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(ids).not.toContain(task.taskId);
    }, settle);
  });
});

describe("independent tasks", () => {
  it("a long countdown does not delay the start or end of a short task created after it", async ({ expect }) => {
    const long = await createTask("countdown", { seconds: 20 });
    await vi.waitFor(
      async () =>
        expect(
          ((await taskResponse(server.url, long.taskId, auth)).body["progress"] as { progress?: number } | undefined)
            ?.progress ?? 0,
        ).toBeGreaterThanOrEqual(1),
      settle,
    );
    const short = await createTask("countdown", { seconds: 1 });
    const result = await client.experimental.tasks.getTaskResult(short.taskId, CallToolResultSchema);
    expect(result.content).toEqual([{ type: "text", text: "Countdown of 1 s finished." }]);
    // The short task is done while the long one still runs: they did not queue behind each other.
    expect((await client.experimental.tasks.getTask(long.taskId)).status).toBe("working");
    await client.experimental.tasks.cancelTask(long.taskId);
  });
});
