// examples/create-mcp-handler on the real runtime: an `agents` createMcpHandler Worker that adopted
// durable tasks. 2026-07-28 clients with the Tasks extension get a task for `countdown`; clients
// without it get the hybrid answer (inline when quick, else the link and the check-back tools);
// `echo` stays plain; a 2025 client through createMcpHandler's legacy lane gets the hybrid answer;
// cancel works; a SIGKILL mid-task loses and repeats nothing; with no auth, only loopback is served.
import { afterAll, describe, it, vi } from "vitest";
import type { Client as V2Client } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { adopterConfig } from "./support/adopter";
import { countdownSurvivesKill } from "./support/countdown-crash";
import { ownServer } from "./support/dev-server";
import { connectClient } from "./support/mcp";
import { CLIENT_INFO, MODERN, connectV2, getTask, modern, rawDispatch, resultOf, startTask } from "./support/modern";
import { getTask as taskDocument } from "./support/tasks";
import { until } from "../until";
import { rawRequest } from "./support/raw-http";
import { run } from "./support/fresh-clone";
import { tmpdir } from "node:os";
import { resolve } from "node:path";

// It kills and restarts its server.
// The example as a user copies it: installed from the packed tarball (support/adopter.ts).
const server = ownServer(async () => ({
  config: await adopterConfig("examples/create-mcp-handler"),
  vars: { INLINE_WAIT_MS: "3000", LEASE_MS: "3000" },
}));
const v2Clients: V2Client[] = [];

afterAll(async () => {
  for (const client of v2Clients) await client.close().catch(() => undefined);
});

async function v2(): Promise<V2Client> {
  const client = await connectV2(server.url, { pin: MODERN });
  v2Clients.push(client);
  return client;
}

async function taskSession() {
  return createTaskSessionFromClient(await v2(), {
    endpointId: "adopt-example",
    rawDispatch: rawDispatch(server.url),
    v2RequestFraming: { protocolVersion: MODERN, clientInfo: CLIENT_INFO, clientCapabilities: {} },
  });
}

const textOf = (result: unknown): string =>
  CallToolResultSchema.parse(result)
    .content.map((block) => (block.type === "text" ? block.text : ""))
    .join("");

describe("discovery and plain tools", () => {
  it("server/discover shows the Tasks extension and tools/list the durable, plain and check-back tools", async ({
    expect,
  }) => {
    const client = await v2();
    expect(client.getServerCapabilities()?.extensions).toHaveProperty(["io.modelcontextprotocol/tasks"]);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual([
      "echo",
      "countdown",
      "task_status",
      "task_result",
      "task_cancel",
      "task_input",
    ]);
    // How long calls work, for models whose client drops the server's instructions (the template's words).
    expect(tools.find((tool) => tool.name === "countdown")?.description).toMatch(/keeps running in the background/);
    // As its author wrote it (a raw shape, no outputSchema): what the SDK lists for its own tools.
    expect(tools.find((tool) => tool.name === "countdown")).not.toHaveProperty("outputSchema");
    expect(tools.find((tool) => tool.name === "countdown")?.inputSchema).toMatchObject({
      type: "object",
      properties: { seconds: { type: "integer", minimum: 1, maximum: 86_400 } },
      required: ["seconds"],
    });
  });

  it("echo stays a plain tool: { text } answers the text", async ({ expect }) => {
    const client = await v2();
    const result = await client.callTool({ name: "echo", arguments: { text: "hello there" } });
    expect(result).toMatchObject({ content: [{ type: "text", text: "hello there" }] });
  });
});

describe("2026-07-28 with the Tasks extension", () => {
  it("countdown answers a task, shows progress in statusMessage, and ends with the countdown's text", async ({
    expect,
  }) => {
    const tasks = await taskSession();
    try {
      const execution = await tasks.callTool("countdown", { seconds: 3 });
      if (execution.kind !== "task") throw new Error(`expected a task, got ${execution.kind}`);
      const { taskId } = execution.handle;
      await vi.waitFor(async () => {
        expect((await getTask(server.url, taskId))["statusMessage"]).toMatch(/s left/);
      }, until(100));
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe("completed");
      expect(textOf(resultFromTaskOutcome(outcome))).toBe("Countdown of 3 s finished.");
    } finally {
      await tasks.close();
    }
  });

  it("tasks/cancel stops a running countdown", async ({ expect }) => {
    const tasks = await taskSession();
    try {
      const execution = await tasks.callTool("countdown", { seconds: 60 });
      if (execution.kind !== "task") throw new Error("expected a task");
      await execution.cancel();
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe("cancelled");
      expect((await taskDocument(server.url, execution.handle.taskId)).status).toBe("cancelled");
    } finally {
      await tasks.close();
    }
  });
});

describe("examples/requester/follow-task.mjs (docs/adopting.md's 2026 requester)", () => {
  it("follows a countdown's task to its text with fetch alone, each status line once", async ({ expect }) => {
    const script = resolve(import.meta.dirname, "../../examples/requester/follow-task.mjs");
    const command = run(tmpdir(), process.execPath, [script, `${server.url}/mcp`, "countdown", '{"seconds":2}']);
    expect(await command.exited, command.output()).toBe(0);
    const lines = command.output().trim().split("\n");
    expect(lines[0]).toMatch(/^task \S+: working$/);
    expect(lines.at(-1)).toBe("Countdown of 2 s finished.");
    expect(new Set(lines).size).toBe(lines.length);
  });
});

describe("clients without the Tasks extension (the hybrid answer)", () => {
  it("a quick countdown answers its result inline", async ({ expect }) => {
    const reply = await modern(server.url, "tools/call", { name: "countdown", arguments: { seconds: 1 } });
    expect(textOf(resultOf(reply))).toBe("Countdown of 1 s finished.");
  });

  it("a long countdown answers 'Still running' with the task link, and task_status follows it", async ({ expect }) => {
    const result = resultOf(await modern(server.url, "tools/call", { name: "countdown", arguments: { seconds: 30 } }));
    expect(textOf(result)).toMatch(/Still running/);
    const taskId = String((result["structuredContent"] as { taskId?: unknown } | undefined)?.taskId);
    const status = resultOf(await modern(server.url, "tools/call", { name: "task_status", arguments: { taskId } }));
    expect(status["structuredContent"]).toMatchObject({ taskId, status: "working" });
    const cancelled = resultOf(await modern(server.url, "tools/call", { name: "task_cancel", arguments: { taskId } }));
    expect(textOf(cancelled)).toMatch(/^Cancelled task/);
  });

  it("a 2025-11-25 client (SDK v1) through createMcpHandler's legacy lane gets the result inline", async ({
    expect,
  }) => {
    const client = await connectClient(server.url);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("countdown");
      const result = await client.callTool({ name: "countdown", arguments: { seconds: 1 } });
      expect(textOf(result)).toBe("Countdown of 1 s finished.");
      // No outputSchema, so no structuredContent that only repeats the text.
      expect(result).not.toHaveProperty("structuredContent");
    } finally {
      await client.close();
    }
  });
});

describe("the task:// link of the hybrid answer", () => {
  it("is readable in both eras: a 2025-11-25 client through the legacy lane and a 2026-07-28 request", async ({
    expect,
  }) => {
    const client = await connectClient(server.url);
    try {
      const answer = CallToolResultSchema.parse(
        await client.callTool({ name: "countdown", arguments: { seconds: 30 } }),
      );
      expect(textOf(answer)).toMatch(/Still running/);
      const link = answer.content.find((block) => block.type === "resource_link");
      if (link?.type !== "resource_link") throw new Error("expected a resource_link to the task");
      expect(link.uri).toMatch(/^task:\/\/[0-9a-f]{32}$/);
      const taskId = link.uri.slice("task://".length);
      // 2025-11-25: the adopter's own McpServer answers it (-32601 before the package registered it).
      const read = await client.readResource({ uri: link.uri });
      const text = read.contents[0] && "text" in read.contents[0] ? read.contents[0].text : "";
      expect(JSON.parse(text)).toMatchObject({ taskId, status: "working" });
      // `?after=N`, as the partial-results docs read it, matches the same template.
      await expect(client.readResource({ uri: `${link.uri}?after=0` })).resolves.toHaveProperty("contents");
      // Another id is simply not found, as on the template.
      await expect(client.readResource({ uri: `task://${"0".repeat(32)}` })).rejects.toThrow(/not found/i);
      // 2026-07-28: the engine answers it.
      const modernRead = resultOf(await modern(server.url, "resources/read", { uri: link.uri }));
      const contents = modernRead["contents"] as { text: string }[];
      expect(JSON.parse(contents[0]?.text ?? "{}")).toMatchObject({ taskId, status: "working" });
      await client.callTool({ name: "task_cancel", arguments: { taskId } });
    } finally {
      await client.close();
    }
  });
});

describe("who may call", () => {
  it("with no principal configured, a request not addressed to loopback is refused, naming the option to pass", async ({
    expect,
  }) => {
    // rawRequest: fetch will not send another Host than the URL's.
    const reply = await rawRequest(`${server.url}/tasks/0123456789abcdef0123456789abcdef`, {
      headers: { Host: "tasks.example.com" },
    });
    const answer = { status: reply.status, body: reply.text };
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({
      error: "principal_not_configured",
      message: expect.stringContaining("durableTasks({ tools, principal:"),
    });
  });
});

describe("a crash of wrangler dev mid-task", () => {
  it("finishes the countdown after a restart on the same state, each second reported once", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 6 });
    await countdownSurvivesKill(server, taskId, 6);
    expect((await taskDocument(server.url, taskId)).result).toMatchObject({
      content: [{ type: "text", text: "Countdown of 6 s finished." }],
    });
  });
});

describe("the Events extension in the adopter's Worker", () => {
  it("declares it, and events/poll gives the caller's task changes from the package's own event log", async ({
    expect,
  }) => {
    const discovered = resultOf(await modern(server.url, "server/discover"));
    expect(discovered["capabilities"]).toMatchObject({
      extensions: { "io.modelcontextprotocol/events": {} },
    });
    const listed = resultOf(await modern(server.url, "events/list"));
    expect((listed["events"] as { name: string }[]).map((event) => event.name)).toEqual(["task.status"]);
    const start = resultOf(
      await modern(server.url, "events/poll", { name: "task.status", arguments: {}, cursor: null }),
    );
    const taskId = await startTask(server.url, "countdown", { seconds: 1 });
    const seen: string[] = [];
    let cursor = start["cursor"];
    await vi.waitFor(async () => {
      const page = resultOf(
        await modern(server.url, "events/poll", { name: "task.status", arguments: { taskId }, cursor }),
      );
      cursor = page["cursor"];
      for (const event of page["events"] as { data: { status: string } }[]) seen.push(event.data.status);
      expect(seen).toContain("completed");
    }, until());
    expect(seen).toEqual(["working", "completed"]);
    const unknown = await modern(server.url, "events/poll", { name: "no.such", arguments: {}, cursor: null });
    expect(unknown.body?.["error"]).toMatchObject({ code: -32023 });
  });
});
