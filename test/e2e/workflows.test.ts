// Workflow-backed tools on the real runtime (wrangler dev's local Workflows): publish_report's task
// follows its Workflow instance — progress per page step, the question answered by every path
// (POST /tasks/{id}/input, 2025 elicitation through the SDK v1 Client, 2026 tasks/update), the
// result (cancel and ttl expiry terminating the instance: workflows-cancel.test.ts).
import { describe, it, vi } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  CallToolResultSchema,
  ElicitRequestSchema,
  type CallToolResult,
  type ElicitRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { sharedServer } from "./support/dev-server";
import { failWithLogs } from "./support/wrangler-dev";
import { postInput, textOf, waitForStatus } from "./support/hitl";
import { rpc } from "./support/mcp";
import { getTask, modern, openStream, resultOf, startTask, TASKS } from "./support/modern";
import {
  instanceStatus,
  NO,
  pageSteps,
  progressOf,
  question,
  startPublish,
  stepsOf,
  taskDoc,
  YES,
} from "./support/workflows";
import { eventLog } from "./support/tasks";
import { until } from "../until";

const server = sharedServer();
const settle = until(100);

const withServerLogs = (error: unknown): never => failWithLogs(server, error);

describe("publish_report over plain HTTP", () => {
  it("reports each page's step and progress, asks, and publishes on yes", async ({ expect }) => {
    const taskId = await startPublish(server.url, 4);
    const waiting = await waitForStatus(server.url, taskId, "input_required").catch(withServerLogs);
    expect(waiting.statusMessage).toBe(question(4));
    expect(waiting.progress).toMatchObject({ progress: 4, total: 4 });
    expect(waiting.inputRequests?.["publish"]?.params).toMatchObject({
      mode: "form",
      message: question(4),
      requestedSchema: { required: ["publish"], properties: { publish: { type: "boolean" } } },
    });
    expect((await postInput(server.url, taskId, { publish: YES })).status).toBe(200);
    const done = await waitForStatus(server.url, taskId, "completed").catch(withServerLogs);
    expect(textOf(done.result)).toBe("Published a report of 4 pages.");
    const events = await eventLog(server.url, taskId);
    expect(stepsOf(events)).toEqual([...pageSteps(4), "publish"]);
    expect(progressOf(events)).toEqual([1, 2, 3, 4]);
    expect((await instanceStatus(server.port, taskId)).status).toBe("complete");
  });

  it("does not publish when the person says no, and says why", async ({ expect }) => {
    const taskId = await startPublish(server.url, 2);
    await waitForStatus(server.url, taskId, "input_required").catch(withServerLogs);
    expect((await postInput(server.url, taskId, { publish: NO })).status).toBe(200);
    const done = await waitForStatus(server.url, taskId, "completed").catch(withServerLogs);
    expect(textOf(done.result)).toMatch(/^Not published: /);
    expect(stepsOf(await eventLog(server.url, taskId))).toEqual(pageSteps(2));
  });

  it("refuses an answer that breaks the form, naming the field, and keeps waiting", async ({ expect }) => {
    const taskId = await startPublish(server.url, 1);
    await waitForStatus(server.url, taskId, "input_required").catch(withServerLogs);
    const bad = await postInput(server.url, taskId, { publish: { action: "accept", content: { publish: "yes" } } });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain("publish");
    expect((await taskDoc(server.url, taskId)).status).toBe("input_required");
    expect((await postInput(server.url, taskId, { publish: { action: "decline" } })).status).toBe(200);
    const done = await waitForStatus(server.url, taskId, "completed").catch(withServerLogs);
    // Declined by the test, at once or a little later: either words (who-answered.test.ts says which is when).
    expect(textOf(done.result)).toMatch(
      /^Not published: (the person declined\.|the client declined "Publish the report of 1 pages\?" on its own)/,
    );
  });
});

describe("bad input", () => {
  it("refuses pages outside 1..50 with -32602 naming the field, creating no task", async ({ expect }) => {
    for (const pages of [0, 51, "x"]) {
      const reply = await rpc(server.url, {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/call",
        params: { name: "publish_report", arguments: { pages }, task: { ttl: 600_000 } },
      });
      expect((reply.body as { error?: { code: number; message: string } }).error, String(pages)).toMatchObject({
        code: -32602,
        message: expect.stringContaining("pages"),
      });
    }
  });
});

describe("publish_report through the SDK v1 Client (2025-11-25 elicitation)", () => {
  it("asks through elicitation/create with the related task, and the accepted answer publishes", async ({ expect }) => {
    const client = new Client({ name: "wf", version: "1" }, { capabilities: { elicitation: {} } });
    const asked: ElicitRequest[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request);
      return { action: "accept", content: { publish: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    try {
      const progress: number[] = [];
      let taskId = "";
      let result: CallToolResult | undefined;
      const stream = client.experimental.tasks.callToolStream(
        { name: "publish_report", arguments: { pages: 3 } },
        CallToolResultSchema,
        { task: { ttl: 600_000 }, onprogress: (p) => void progress.push(p.progress) },
      );
      for await (const message of stream) {
        if (message.type === "taskCreated") taskId = message.task.taskId;
        if (message.type === "result") result = message.result as CallToolResult;
        if (message.type === "error") throw message.error;
      }
      expect(textOf(result)).toBe("Published a report of 3 pages.");
      expect(asked).toHaveLength(1);
      expect(asked[0]?.params).toMatchObject({
        message: question(3),
        _meta: { "io.modelcontextprotocol/related-task": { taskId } },
      });
      await vi.waitFor(() => expect(progress).toEqual([1, 2, 3]), settle);
    } finally {
      await client.close();
    }
  });
});

describe("publish_report in 2026-07-28 with the Tasks extension", () => {
  it("shows the question in tasks/get, takes the answer by tasks/update, and inlines the result", async ({
    expect,
  }) => {
    const taskId = await startTask(server.url, "publish_report", { pages: 2 });
    await vi.waitFor(async () => expect((await getTask(server.url, taskId))["status"]).toBe("input_required"), settle);
    const waiting = await getTask(server.url, taskId);
    expect(waiting["inputRequests"]).toMatchObject({
      publish: { method: "elicitation/create", params: { message: question(2) } },
    });
    const updated = resultOf(
      await modern(server.url, "tasks/update", { taskId, inputResponses: { publish: YES } }, { capabilities: TASKS }),
    );
    expect(updated["resultType"]).toBe("complete");
    await vi.waitFor(async () => expect((await getTask(server.url, taskId))["status"]).toBe("completed"), settle);
    const done = await getTask(server.url, taskId);
    expect(textOf(done["result"] as CallToolResult)).toBe("Published a report of 2 pages.");
  });
});

describe("the views that follow any task", () => {
  it("subscriptions/listen (2026) shows the progress, the question and the result as notifications/tasks", async ({
    expect,
  }) => {
    const taskId = await startTask(server.url, "publish_report", { pages: 3 });
    const stream = await openStream(
      server.url,
      "subscriptions/listen",
      { notifications: { taskIds: [taskId] } },
      { capabilities: TASKS },
    );
    try {
      const tasks = () =>
        stream.messages
          .filter((m) => m["method"] === "notifications/tasks")
          .map((m) => m["params"] as Record<string, unknown>);
      await vi.waitFor(() => expect(tasks().some((t) => t["status"] === "input_required")).toBe(true), settle);
      expect(tasks().some((t) => String(t["statusMessage"] ?? "").includes("Running on its Workflow"))).toBe(true);
      expect(tasks().find((t) => t["status"] === "input_required")?.["inputRequests"]).toMatchObject({
        publish: { params: { message: question(3) } },
      });
      resultOf(
        await modern(server.url, "tasks/update", { taskId, inputResponses: { publish: YES } }, { capabilities: TASKS }),
      );
      await vi.waitFor(() => expect(tasks().some((t) => t["status"] === "completed")).toBe(true), settle);
      expect(textOf(tasks().find((t) => t["status"] === "completed")?.["result"] as CallToolResult)).toBe(
        "Published a report of 3 pages.",
      );
    } finally {
      stream.close();
    }
  });
});
