// examples/sdk-v1-handler on the real runtime, installed from the tarball (issue 49, point 1): an
// SDK v1 McpServer built per request and passed to `createMcpHandler(server)`, with
// sdkV1Tasks(durableTasks(...)) in front. A 2025-11-25 task client (SDK v1 Client with
// experimental.tasks) gets a durable task for `countdown`; a plain call gets the hybrid answer
// (inline when quick, else the link, readable and followed by the check-back tools); `echo` stays plain.
import { afterAll, describe, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { adopterConfig } from "./support/adopter";
import { ownServer } from "./support/dev-server";
import { getTask as taskDocument } from "./support/tasks";

const server = ownServer(async () => ({
  config: await adopterConfig("examples/sdk-v1-handler"),
  vars: { INLINE_WAIT_MS: "3000" },
}));
const TASKS = { tasks: { list: {}, cancel: {}, requests: {} } };
const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients) await client.close().catch(() => undefined);
});

async function connect(capabilities = {}): Promise<Client> {
  const client = new Client({ name: "adopt-sdk-v1", version: "1" }, { capabilities });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  clients.push(client);
  return client;
}

const textOf = (result: unknown): string =>
  CallToolResultSchema.parse(result)
    .content.map((block) => (block.type === "text" ? block.text : ""))
    .join("");

describe("an SDK v1 server under createMcpHandler(server)", () => {
  it("lists echo, countdown with taskSupport and the check-back tools, and declares tasks", async ({ expect }) => {
    const client = await connect(TASKS);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "echo",
      "countdown",
      "task_status",
      "task_result",
      "task_cancel",
      "task_input",
    ]);
    expect(tools.find((tool) => tool.name === "countdown")?.execution).toEqual({ taskSupport: "optional" });
    expect(client.getServerCapabilities()?.tasks).toMatchObject({ requests: { tools: { call: {} } } });
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe("hi");
  });

  it("a 2025-11-25 task client's countdown is a durable task: created, polled, its result", async ({ expect }) => {
    const client = await connect(TASKS);
    await client.listTools();
    const stream = client.experimental.tasks.callToolStream(
      { name: "countdown", arguments: { seconds: 2 } },
      CallToolResultSchema,
    );
    let taskId = "";
    let text = "";
    const errors: string[] = [];
    for await (const message of stream) {
      if (message.type === "taskCreated") taskId = message.task.taskId;
      if (message.type === "result") text = textOf(message.result);
      if (message.type === "error") errors.push(message.error.message);
    }
    expect(errors).toEqual([]);
    expect(taskId).toMatch(/^[0-9a-f]{32}$/);
    expect(text).toBe("Countdown of 2 s finished.");
    expect((await taskDocument(server.url, taskId)).status).toBe("completed");
  });

  it("a plain call gets the hybrid answer: inline when quick, else the link that task_cancel follows", async ({
    expect,
  }) => {
    const client = await connect();
    expect(textOf(await client.callTool({ name: "countdown", arguments: { seconds: 1 } }))).toBe(
      "Countdown of 1 s finished.",
    );
    const long = CallToolResultSchema.parse(await client.callTool({ name: "countdown", arguments: { seconds: 30 } }));
    expect(textOf(long)).toMatch(/Still running/);
    const link = long.content.find((block) => block.type === "resource_link");
    if (link?.type !== "resource_link") throw new Error("expected the task link");
    const taskId = link.uri.slice("task://".length);
    expect((await taskDocument(server.url, taskId)).status).toBe("working");
    // The link is readable in 2025 on this lane too (the engine answers it, not the SDK v1 server).
    const read = await client.readResource({ uri: link.uri });
    const first = read.contents[0];
    expect(JSON.parse(first !== undefined && "text" in first ? first.text : "{}")).toMatchObject({ taskId });
    const cancelled = await client.callTool({ name: "task_cancel", arguments: { taskId } });
    expect(textOf(cancelled)).toMatch(/^Cancelled task/);
  });
});
