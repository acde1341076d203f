import { afterAll, beforeAll, describe, it } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { startDevServer, type DevServer } from "./support/wrangler-dev";
import { connectClient, rpc } from "./support/mcp";

let server: DevServer;
let client: Client;

beforeAll(async () => {
  server = await startDevServer({ vars: { INLINE_WAIT_MS: "3000" } });
  client = await connectClient(server.url);
});

afterAll(async () => {
  await client?.close();
  await server?.stop();
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

  it("negotiates older protocol versions", async ({ expect }) => {
    for (const version of ["2025-06-18", "2025-03-26"]) {
      const reply = await rpc(server.url, { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "old", version: "1" } } });
      expect(reply.body).toMatchObject({ result: { protocolVersion: version } });
    }
  });
});

describe("task-augmented tools/call with the SDK's experimental tasks API", () => {
  it("creates a task at once and streams it to its result", async ({ expect }) => {
    const started = Date.now();
    const stream = client.experimental.tasks.callToolStream({ name: "countdown", arguments: { seconds: 2 } }, CallToolResultSchema, { task: { ttl: 60_000 } });
    const kinds: string[] = [];
    let taskId = "";
    let result: unknown;
    for await (const message of stream) {
      kinds.push(message.type);
      if (message.type === "taskCreated") {
        taskId = message.task.taskId;
        expect(Date.now() - started).toBeLessThan(2000);
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
    const result = await client.callTool({ name: "countdown", arguments: { seconds: 1 } }, undefined, { onprogress: (p) => progress.push(p.progress), timeout: 30_000 });
    expect(result.content).toEqual([{ type: "text", text: "Countdown of 1 s finished." }]);
    expect(progress).toEqual([1]);
  });

  it("returns a resource_link to the task when the job outlasts the budget", async ({ expect }) => {
    const result = await client.callTool({ name: "countdown", arguments: { seconds: 6 } });
    const content = result.content as { type: string; uri?: string; text?: string }[];
    const link = content.find((c) => c.type === "resource_link");
    expect(link?.uri).toMatch(/^task:\/\/[0-9a-f]{32}$/);
    expect(content.find((c) => c.type === "text")?.text).toMatch(/still running/);
    const read = await client.readResource({ uri: link?.uri ?? "" });
    const doc = JSON.parse((read.contents[0] as { text: string }).text);
    expect(doc.status).toBe("working");
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toContain("task://{taskId}");
  });
});

describe("quick tools", () => {
  it("run inline and refuse task augmentation", async ({ expect }) => {
    expect((await client.callTool({ name: "echo", arguments: { text: "hi" } })).content).toEqual([{ type: "text", text: "hi" }]);
    const reply = await rpc(server.url, { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "echo", arguments: { text: "x" }, task: {} } });
    expect(reply.body).toMatchObject({ error: { code: -32601 } });
  });
});
