import { afterAll, beforeAll, describe, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { sharedServer } from "./support/dev-server";
import { SHORT_INLINE_VARS } from "./support/server-settings";
import { connectClient, rpc } from "./support/mcp";

// A short inline wait: its 6 s countdown falls back, its 1 s one answers inline (support/server-settings.ts).
const server = sharedServer(SHORT_INLINE_VARS);
let client: Client;
/** The versions this server negotiates (those of its SDK, @modelcontextprotocol/sdk 1.32.2), newest first. */
const VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];

beforeAll(async () => {
  client = await connectClient(server.url);
});

afterAll(async () => {
  await client?.close();
});

describe("initialize and tools/list (real runtime, real SDK client)", () => {
  it("declares tasks, tools and resources", ({ expect }) => {
    const caps = client.getServerCapabilities();
    expect(caps?.tasks).toEqual({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    expect(caps?.tools).toBeDefined();
    expect(caps?.resources).toBeDefined();
  });

  it("lists the example tools with their task support", async ({ expect }) => {
    const { tools } = await client.listTools();
    const support = Object.fromEntries(tools.map((t) => [t.name, t.execution?.taskSupport]));
    expect(support).toMatchObject({ countdown: "optional", batch_process: "optional", echo: "forbidden" });
  });

  it("negotiates each version it supports, and answers any other with its latest, 2025-11-25", async ({ expect }) => {
    const negotiated: Record<string, unknown> = {};
    for (const version of [...VERSIONS, "2023-01-01"]) {
      const reply = await rpc(server.url, {
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "old", version: "1" } },
      });
      negotiated[version] = (reply.body as { result?: { protocolVersion?: string } }).result?.protocolVersion;
    }
    expect(negotiated).toEqual({ ...Object.fromEntries(VERSIONS.map((v) => [v, v])), "2023-01-01": "2025-11-25" });
  });

  it("accepts those versions in the MCP-Protocol-Version header and refuses any other with 400", async ({ expect }) => {
    const list = (version: string) =>
      rpc(
        server.url,
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
        { headers: { "MCP-Protocol-Version": version } },
      );
    for (const version of VERSIONS) expect((await list(version)).status, version).toBe(200);
    const refused = await list("2023-01-01");
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: { code: -32600, message: expect.stringContaining(VERSIONS.join(", ")) },
    });
  });
});

describe("task-augmented tools/call with the SDK's experimental tasks API", () => {
  it("creates a task at once and streams it to its result", async ({ expect }) => {
    const stream = client.experimental.tasks.callToolStream(
      { name: "countdown", arguments: { seconds: 2 } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    const kinds: string[] = [];
    let taskId = "";
    let result: unknown;
    for await (const message of stream) {
      kinds.push(message.type);
      if (message.type === "taskCreated") {
        taskId = message.task.taskId;
        // Answered before the job ended: the task is still working when the client first sees it.
        expect(message.task).toMatchObject({ status: "working", ttl: 60_000 });
        expect(message.task.taskId).toMatch(/^[0-9a-f]{32}$/);
      }
      if (message.type === "result") result = message.result;
    }
    expect(kinds[0]).toBe("taskCreated");
    expect(result).toMatchObject({ content: [{ type: "text", text: "Countdown of 2 s finished." }] });
    const task = await client.experimental.tasks.getTask(taskId);
    expect(task.status).toBe("completed");
  });
});

describe("plain tools/call of a task-capable tool", () => {
  it("answers inline when the job ends within the inline budget", async ({ expect }) => {
    const progress: number[] = [];
    const result = await client.callTool({ name: "countdown", arguments: { seconds: 1 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
      timeout: 30_000,
    });
    expect(result.content).toEqual([{ type: "text", text: "Countdown of 1 s finished." }]);
    expect(progress).toEqual([1]);
  });

  it("returns a resource_link to the task when the job outlasts the budget", async ({ expect }) => {
    const result = await client.callTool({ name: "countdown", arguments: { seconds: 6 } });
    const content = result.content as { type: string; uri?: string; text?: string }[];
    const link = content.find((c) => c.type === "resource_link");
    expect(link?.uri).toMatch(/^task:\/\/[0-9a-f]{32}$/);
    expect(content.find((c) => c.type === "text")?.text).toMatch(
      /^Still running: "countdown" continues in the background/,
    );
    const read = await client.readResource({ uri: link?.uri ?? "" });
    const doc = JSON.parse((read.contents[0] as { text: string }).text);
    expect(doc.status).toBe("working");
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toContain("task://{taskId}");
  });
});

describe("quick tools", () => {
  it("run inline and refuse task augmentation", async ({ expect }) => {
    expect((await client.callTool({ name: "echo", arguments: { text: "hi" } })).content).toEqual([
      { type: "text", text: "hi" },
    ]);
    const reply = await rpc(server.url, {
      jsonrpc: "2.0",
      id: 9,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "x" }, task: {} },
    });
    expect(reply.body).toMatchObject({ error: { code: -32601 } });
  });
});
