// The other ways a Workflow-backed task's question is answered, and an instance ended outside MCP:
// a plain 2025 tools/call (the question on its own response stream, the result inline), the SDK v2
// client's multi round-trip in 2026, the ext-tasks requester (tasks/update), the task_input tool
// after the fallback; and a terminate from wrangler's Workflows API fails the task, saying so.
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import { Client as ClientV1 } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as TransportV1 } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema, type CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import {
  createApplicationInputHandler,
  createTaskSessionFromClient,
  resultFromTaskOutcome,
} from "@modelcontextprotocol/ext-tasks/client";
import { sharedServer } from "./support/dev-server";
import { LONG_INLINE_VARS } from "./support/server-settings";
import { failWithLogs } from "./support/wrangler-dev";
import { textOf, waitForStatus } from "./support/hitl";
import { CLIENT_INFO, MODERN, connectV2, modern, rawDispatch, resultOf } from "./support/modern";
import { question, startPublish, taskDoc, terminateInstance, YES } from "./support/workflows";
import { until } from "../until";

// A long inline wait and Workflows checked every 2 s: a Workflow-backed call has room to end inline.
const server = sharedServer(LONG_INLINE_VARS);
const ELICIT = { elicitation: {} };
const settle = until(100);
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  // Checks every 2 s, so a terminate from outside shows within seconds (docs/workflows.md).
});

afterAll(async () => {
  for (const close of closers) await close().catch(() => undefined);
});

const withServerLogs = (error: unknown): never => failWithLogs(server, error);

describe("2025-11-25, a plain tools/call from a client that declared elicitation", () => {
  it("gets the question on its response stream and the result inline, with progress", async ({ expect }) => {
    const client = new ClientV1({ name: "wf", version: "1" }, { capabilities: ELICIT });
    closers.push(() => client.close());
    const asked: string[] = [];
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return { action: "accept", content: { publish: true } };
    });
    await client.connect(new TransportV1(new URL(`${server.url}/mcp`)));
    const progress: number[] = [];
    const result = await client.callTool({ name: "publish_report", arguments: { pages: 3 } }, undefined, {
      onprogress: (p) => void progress.push(p.progress),
      timeout: 60_000,
    });
    expect(textOf(result as CallToolResult)).toBe("Published a report of 3 pages.");
    // The same words where Claude Code looks (JSON.stringify(structuredContent)): docs/model-facing.md.
    expect(result.structuredContent).toEqual({ summary: "Published a report of 3 pages." });
    expect(asked).toEqual([question(3)]);
    expect(progress).toEqual([1, 2, 3]);
  });
});

describe("2026-07-28", () => {
  it("the SDK v2 client without the Tasks extension answers through multi round-trip", async ({ expect }) => {
    const client = new Client(
      { name: "wf-v2", version: "1.0.0" },
      { versionNegotiation: { mode: { pin: MODERN } }, capabilities: ELICIT },
    );
    closers.push(() => client.close());
    const asked: unknown[] = [];
    client.setRequestHandler("elicitation/create", async (request) => {
      asked.push(request.params);
      return { action: "accept", content: { publish: true } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const result = await client.callTool({ name: "publish_report", arguments: { pages: 2 } });
    expect(textOf(result as { content: { type: string; text: string }[] })).toBe("Published a report of 2 pages.");
    expect(asked).toEqual([expect.objectContaining({ message: question(2) })]);
  });

  it("the ext-tasks requester answers through tasks/update and settles the task", async ({ expect }) => {
    const client = await connectV2(server.url, { pin: MODERN });
    closers.push(() => client.close());
    const asked: string[] = [];
    const tasks = createTaskSessionFromClient(client, {
      endpointId: "e2e-workflows",
      rawDispatch: rawDispatch(server.url),
      v2RequestFraming: { protocolVersion: MODERN, clientInfo: CLIENT_INFO, clientCapabilities: ELICIT },
      onInputRequest: createApplicationInputHandler({
        elicitation: (request, context) => {
          asked.push(`${String(request.params["message"])} via ${context.delivery}`);
          return { action: "decline" };
        },
        sampling: () => Promise.reject(new Error("no sampling here")),
        roots: () => Promise.reject(new Error("no roots here")),
      }),
    });
    closers.push(() => tasks.close());
    const execution = await tasks.callTool("publish_report", { pages: 1 });
    expect(execution.kind).toBe("task");
    const { outcome } = await execution.settle();
    expect(outcome.status).toBe("completed");
    // The requester declines as soon as it sees the question, which may be within the floor or not (who-answered.test.ts).
    expect(textOf(resultFromTaskOutcome(outcome) as { content: { type: string; text: string }[] })).toMatch(
      /^Not published: (the person declined\.|the client declined "Publish the report of 1 pages\?" on its own)/,
    );
    expect(asked).toEqual([`${question(1)} via task-update`]);
  });

  it("a client that declared neither gets the fallback with the question, and task_input passes the answer on", async ({
    expect,
  }) => {
    const fallback = resultOf(
      await modern(server.url, "tools/call", { name: "publish_report", arguments: { pages: 1 } }, { capabilities: {} }),
    );
    expect(textOf(fallback as { content: { type: string; text: string }[] })).toContain(question(1));
    const taskId = String((fallback["structuredContent"] as Record<string, unknown>)["taskId"]);
    resultOf(
      await modern(server.url, "tools/call", {
        name: "task_input",
        arguments: { taskId, inputResponses: { publish: YES } },
      }),
    );
    const done = await waitForStatus(server.url, taskId, "completed").catch(withServerLogs);
    expect(textOf(done.result)).toBe("Published a report of 1 pages.");
  });
});

describe("an instance ended outside MCP", () => {
  it("fails its task with a message saying it was terminated", async ({ expect }) => {
    // The most pages (0.3 s each): 15 s for the terminate to land while it builds. It used to go through
    // wrangler's CLI, whose start alone could outlast that on a loaded machine; now it is one request.
    const pages = 50;
    const taskId = await startPublish(server.url, pages);
    await vi.waitFor(
      async () => expect((await taskDoc(server.url, taskId)).progress?.progress ?? 0).toBeGreaterThanOrEqual(1),
      settle,
    );
    await terminateInstance(server.port, taskId);
    const failed = await waitForStatus(server.url, taskId, "failed").catch(withServerLogs);
    expect(failed.statusMessage).toBe("The Workflow instance was terminated outside MCP.");
    expect(failed.progress?.progress ?? 0).toBeLessThan(pages);
  });
});
