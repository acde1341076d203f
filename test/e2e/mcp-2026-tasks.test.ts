/**
 * Tools and tasks in 2026-07-28, raw HTTP against wrangler dev: server-directed tasks for clients
 * that declared the Tasks extension, inline answers and the fallback link for those that did not,
 * tasks/get|update|cancel, progress as statusMessage, call notifications, and two principals.
 */
import { describe, it, vi } from "vitest";
import { sharedServer } from "./support/dev-server";
import { MIDDLE_INLINE_VARS } from "./support/server-settings";
import { rpc } from "./support/mcp";
import { TASKS, errorOf, getTask, modern, resultOf, startTask } from "./support/modern";
import { until } from "../until";

// An 8 s inline wait; carol is this file's alone, as it lists her tasks (support/server-settings.ts).
const server = sharedServer(MIDDLE_INLINE_VARS);
const alice = { token: "alice-token" };
const bob = { token: "bob-token" };
const settle = until(200);
const UNKNOWN_TASK = "0123456789abcdef0123456789abcdef";

describe("tools/call from a client that declared the Tasks extension", () => {
  it("answers a task-capable tool with CreateTaskResult once the task is durable", async ({ expect }) => {
    const result = resultOf(
      await modern(
        server.url,
        "tools/call",
        { name: "countdown", arguments: { seconds: 1 } },
        { capabilities: TASKS, ...alice },
      ),
    );
    expect(result).toMatchObject({
      resultType: "task",
      taskId: expect.stringMatching(/^[0-9a-f]{32}$/),
      status: "working",
      ttlMs: 86_400_000,
      pollIntervalMs: 500,
    });
    expect(Number.isNaN(Date.parse(String(result["createdAt"])))).toBe(false);
    expect(Number.isNaN(Date.parse(String(result["lastUpdatedAt"])))).toBe(false);
    for (const key of ["task", "ttl", "pollInterval", "result"]) expect(result).not.toHaveProperty(key);
    // Durable before acknowledged: a tasks/get right after finds it.
    expect(await getTask(server.url, String(result["taskId"]), alice)).toMatchObject({
      resultType: "complete",
      taskId: result["taskId"],
    });
  });

  it("ignores params.task in this era", async ({ expect }) => {
    const result = resultOf(
      await modern(
        server.url,
        "tools/call",
        { name: "countdown", arguments: { seconds: 1 }, task: { ttl: 5000 } },
        { capabilities: TASKS, ...alice },
      ),
    );
    expect(result).toMatchObject({ resultType: "task", ttlMs: 86_400_000 });
    const quick = resultOf(
      await modern(
        server.url,
        "tools/call",
        { name: "echo", arguments: { text: "still quick" }, task: { ttl: 5000 } },
        { capabilities: TASKS, ...alice },
      ),
    );
    expect(quick).toMatchObject({ resultType: "complete", content: [{ type: "text", text: "still quick" }] });
  });

  it("creates a task for a tool that only runs as one", async ({ expect }) => {
    const taskId = await startTask(server.url, "build_report", { pages: 1 }, alice);
    await vi.waitFor(
      async () =>
        expect(await getTask(server.url, taskId, alice)).toMatchObject({
          status: "completed",
          result: { content: [{ text: "Report of 1 pages built." }] },
        }),
      settle,
    );
  });
});

describe("tools/call from a client that did not declare it", () => {
  it("answers a quick call inline with resultType complete and no task", async ({ expect }) => {
    const result = resultOf(
      await modern(server.url, "tools/call", { name: "countdown", arguments: { seconds: 1 } }, alice),
    );
    expect(result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "Countdown of 1 s finished." }],
    });
    expect(result).not.toHaveProperty("taskId");
    expect(JSON.stringify(result)).not.toContain("related-task");
  });

  it("streams notifications/progress for the call's progressToken on its own response", async ({ expect }) => {
    const reply = await modern(
      server.url,
      "tools/call",
      { name: "countdown", arguments: { seconds: 2 } },
      { ...alice, meta: { progressToken: "tok-1" } },
    );
    expect(reply.headers.get("Content-Type")).toContain("text/event-stream");
    const progress = reply.messages
      .filter((message) => message["method"] === "notifications/progress")
      .map((message) => message["params"]);
    expect(progress).toEqual([
      { progressToken: "tok-1", progress: 1, total: 2, message: "1 s left" },
      { progressToken: "tok-1", progress: 2, total: 2, message: "0 s left" },
    ]);
    expect(reply.messages.at(-1)).toMatchObject({ id: 1, result: { resultType: "complete" } });
  });

  it("answers a long call with the fallback: a resource link, the check-back tools and structuredContent", async ({
    expect,
  }) => {
    const result = resultOf(
      await modern(server.url, "tools/call", { name: "countdown", arguments: { seconds: 30 } }, alice),
    );
    expect(result["resultType"]).toBe("complete");
    const content = result["content"] as { type: string; text?: string; uri?: string }[];
    const link = content.find((block) => block.type === "resource_link");
    expect(link?.uri).toMatch(/^task:\/\/[0-9a-f]{32}$/);
    expect(content[0]?.text).toContain("task_status");
    const taskId = String(link?.uri).slice("task://".length);
    expect(result["structuredContent"]).toMatchObject({ taskId, status: "working", total: 30 });
    const status = resultOf(
      await modern(server.url, "tools/call", { name: "task_status", arguments: { taskId } }, alice),
    );
    expect(status).toMatchObject({ resultType: "complete", structuredContent: { taskId, status: "working" } });
    expect(JSON.stringify(status)).not.toContain("related-task");
    await modern(server.url, "tools/call", { name: "task_cancel", arguments: { taskId } }, alice);
  });

  it("refuses a tool that only runs as a task with HTTP 400 -32021 naming the extension, in a sentence a model can relay", async ({
    expect,
  }) => {
    const reply = await modern(server.url, "tools/call", { name: "build_report", arguments: { pages: 1 } }, alice);
    expect(reply.status).toBe(400);
    expect(errorOf(reply)).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
    });
    expect(errorOf(reply)["message"]).toBe(
      'Not started: "build_report" runs only as a background task, and this client cannot follow background tasks. Run it from a client that supports MCP tasks (for example interactive Claude Code).',
    );
  });

  it("sends notifications/message only when the request sets io.modelcontextprotocol/logLevel, at or above it", async ({
    expect,
  }) => {
    const logs = (reply: Awaited<ReturnType<typeof modern>>) =>
      reply.messages.filter((message) => message["method"] === "notifications/message");
    const debug = await modern(
      server.url,
      "tools/call",
      { name: "echo", arguments: { text: "abc" } },
      { ...alice, meta: { "io.modelcontextprotocol/logLevel": "debug" } },
    );
    expect(logs(debug)).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/message",
        params: { level: "debug", logger: "echo", data: "Echoing 3 characters." },
      },
    ]);
    expect(resultOf(debug)).toMatchObject({ content: [{ text: "abc" }] });
    const info = await modern(
      server.url,
      "tools/call",
      { name: "echo", arguments: { text: "abc" } },
      { ...alice, meta: { "io.modelcontextprotocol/logLevel": "info" } },
    );
    expect(logs(info)).toEqual([]);
    const none = await modern(server.url, "tools/call", { name: "echo", arguments: { text: "abc" } }, alice);
    expect(none.headers.get("Content-Type")).toContain("application/json");
    expect(logs(none)).toEqual([]);
  });
});

describe("a client leaving an inline call", () => {
  /** The one task of a principal that has started nothing else (its tasks are listed the 2025 way: 2026 has no tasks/list). */
  async function onlyTask(token: string): Promise<{ taskId: string; status: string }> {
    const reply = await rpc(
      server.url,
      { jsonrpc: "2.0", id: 1, method: "tasks/list" },
      { headers: { Authorization: `Bearer ${token}` } },
    );
    const { tasks } = (reply.body as { result: { tasks: { taskId: string; status: string }[] } }).result;
    if (tasks.length !== 1 || !tasks[0]) throw new Error(`expected one task, got ${tasks.length}`);
    return tasks[0];
  }

  // A request still waiting for its first byte is noticed through request.signal, which wrangler dev
  // does not abort (deployed, enable_request_signal does): only the streamed case is testable here.
  it("cancels the call's task when the client closes the call's stream", async ({ expect }) => {
    const token = "carol-token";
    const controller = new AbortController();
    const call = modern(
      server.url,
      "tools/call",
      { name: "countdown", arguments: { seconds: 60 } },
      { token, signal: controller.signal, meta: { progressToken: 1 } },
    ).catch(() => undefined);
    await vi.waitFor(async () => expect((await onlyTask(token)).status).toBe("working"), settle);
    controller.abort();
    await call;
    await vi.waitFor(async () => expect((await onlyTask(token)).status).toBe("cancelled"), settle);
  });
});

describe("tasks/get", () => {
  it("inlines the result of a completed task, without 2025 related-task _meta", async ({ expect }) => {
    const taskId = await startTask(server.url, "batch_process", { items: 2, secondsPerItem: 0 }, alice);
    await vi.waitFor(async () => {
      const task = await getTask(server.url, taskId, alice);
      expect(task).toMatchObject({
        resultType: "complete",
        taskId,
        status: "completed",
        result: {
          resultType: "complete",
          content: [{ type: "text", text: "Processed 2 items." }],
          structuredContent: { items: 2, checksum: 5 },
        },
      });
      expect(JSON.stringify(task)).not.toContain("related-task");
      expect(task).not.toHaveProperty("error");
    }, settle);
  });

  it("shows a tool error (isError) as a completed task with the result, not as failed", async ({ expect }) => {
    const taskId = await startTask(
      server.url,
      "external_job",
      { durationSeconds: 1, pollSeconds: 1, simulate: "reject" },
      alice,
    );
    await vi.waitFor(async () => {
      const task = await getTask(server.url, taskId, alice);
      expect(task).toMatchObject({ status: "completed", result: { isError: true } });
      expect(task).not.toHaveProperty("error");
    }, settle);
  });

  it("keeps statusMessage short and current with the task's progress", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 4 }, alice);
    await vi.waitFor(
      async () => expect(String((await getTask(server.url, taskId, alice))["statusMessage"])).toMatch(/\b[1-4]\/4\b/),
      settle,
    );
    const message = String((await getTask(server.url, taskId, alice))["statusMessage"]);
    expect(message.length).toBeLessThanOrEqual(200);
    expect(await getTask(server.url, taskId, alice)).not.toHaveProperty("result");
    await modern(server.url, "tasks/cancel", { taskId }, { capabilities: TASKS, ...alice });
  });

  it("answers an unknown task and another principal's task with the same -32602", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 1 }, alice);
    const foreign = await modern(server.url, "tasks/get", { taskId }, { capabilities: TASKS, ...bob });
    const unknown = await modern(server.url, "tasks/get", { taskId: UNKNOWN_TASK }, { capabilities: TASKS, ...bob });
    expect(foreign.status).toBe(200);
    expect(errorOf(foreign)).toEqual(errorOf(unknown));
    expect(errorOf(foreign).code).toBe(-32602);
  });
});

describe("tasks/update", () => {
  it("acknowledges input responses with resultType complete (keys not outstanding are ignored)", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 2 }, alice);
    const reply = await modern(
      server.url,
      "tasks/update",
      { taskId, inputResponses: { confirm: { action: "accept", content: { confirm: true } } } },
      { capabilities: TASKS, ...alice },
    );
    expect(resultOf(reply)).toMatchObject({ resultType: "complete" });
    await vi.waitFor(
      async () => expect(await getTask(server.url, taskId, alice)).toMatchObject({ status: "completed" }),
      settle,
    );
  });

  it("refuses an unknown or foreign task and malformed inputResponses with -32602", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 1 }, alice);
    expect(
      errorOf(await modern(server.url, "tasks/update", { taskId, inputResponses: {} }, { capabilities: TASKS, ...bob }))
        .code,
    ).toBe(-32602);
    expect(
      errorOf(
        await modern(
          server.url,
          "tasks/update",
          { taskId: UNKNOWN_TASK, inputResponses: {} },
          { capabilities: TASKS, ...alice },
        ),
      ).code,
    ).toBe(-32602);
    expect(
      errorOf(
        await modern(
          server.url,
          "tasks/update",
          { taskId, inputResponses: { x: { action: "maybe" } } },
          { capabilities: TASKS, ...alice },
        ),
      ).code,
    ).toBe(-32602);
    expect(errorOf(await modern(server.url, "tasks/update", { taskId }, { capabilities: TASKS, ...alice })).code).toBe(
      -32602,
    );
  });
});

describe("tasks/cancel", () => {
  it("acknowledges with resultType complete, and the task ends cancelled", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 60 }, alice);
    const reply = await modern(server.url, "tasks/cancel", { taskId }, { capabilities: TASKS, ...alice });
    expect(resultOf(reply)).toEqual({ resultType: "complete", _meta: expect.any(Object) });
    await vi.waitFor(
      async () => expect(await getTask(server.url, taskId, alice)).toMatchObject({ status: "cancelled" }),
      settle,
    );
    expect(await getTask(server.url, taskId, alice)).not.toHaveProperty("result");
    // Idempotent on a task that has ended.
    expect(
      resultOf(await modern(server.url, "tasks/cancel", { taskId }, { capabilities: TASKS, ...alice })),
    ).toMatchObject({ resultType: "complete" });
  });

  it("cannot cancel another principal's task", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 5 }, alice);
    expect(errorOf(await modern(server.url, "tasks/cancel", { taskId }, { capabilities: TASKS, ...bob })).code).toBe(
      -32602,
    );
    expect((await getTask(server.url, taskId, alice))["status"]).toBe("working");
    await modern(server.url, "tasks/cancel", { taskId }, { capabilities: TASKS, ...alice });
  });
});

describe("a task seen from both eras", () => {
  it("is the same task through 2025 tasks/get (same id, same principal)", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 1 }, alice);
    const response = await fetch(`${server.url}/tasks/${taskId}`, {
      headers: { Authorization: `Bearer ${alice.token}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ taskId, tool: "countdown" });
  });
});
