/**
 * Real clients of both eras against one wrangler dev: the SDK v2 Client (negotiating, and pinned to
 * 2026-07-28) must select the modern era and run tools; the ext-tasks requester runs a task to
 * completion and cancels one over the Tasks extension; the SDK v1 client keeps working unchanged.
 */
import { afterAll, describe, it } from "vitest";
import type { Client as V2Client } from "@modelcontextprotocol/client";
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { sharedServer } from "./support/dev-server";
import { connectClient } from "./support/mcp";
import { CLIENT_INFO, MODERN, connectV2, getTask, rawDispatch } from "./support/modern";

const server = sharedServer();
const v2Clients: V2Client[] = [];

afterAll(async () => {
  for (const client of v2Clients) await client.close().catch(() => undefined);
});

async function v2(mode: "auto" | { pin: string }): Promise<V2Client> {
  const client = await connectV2(server.url, mode);
  v2Clients.push(client);
  return client;
}

describe("the SDK v2 client", () => {
  for (const mode of ["auto", { pin: MODERN }] as const) {
    const label = typeof mode === "string" ? mode : `pinned to ${mode.pin}`;

    it(`${label}: selects the modern era and lists the tools`, async ({ expect }) => {
      const client = await v2(mode);
      expect(client.getProtocolEra()).toBe("modern");
      expect(client.getServerCapabilities()?.extensions).toHaveProperty(["io.modelcontextprotocol/tasks"]);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(["countdown", "echo", "batch_process", "build_report"]),
      );
    });

    it(`${label}: runs a quick tool and a task-capable one inline, with progress`, async ({ expect }) => {
      const client = await v2(mode);
      expect(await client.callTool({ name: "echo", arguments: { text: "hello 2026" } })).toMatchObject({
        content: [{ type: "text", text: "hello 2026" }],
      });
      const progress: number[] = [];
      const result = await client.callTool(
        { name: "countdown", arguments: { seconds: 2 } },
        { onprogress: (update) => progress.push(update.progress) },
      );
      expect(result).toMatchObject({ content: [{ type: "text", text: "Countdown of 2 s finished." }] });
      expect(progress).toEqual([1, 2]);
    });
  }
});

describe("the ext-tasks requester over the Tasks extension", () => {
  async function session() {
    const client = await v2({ pin: MODERN });
    return createTaskSessionFromClient(client, {
      endpointId: "e2e-2026",
      rawDispatch: rawDispatch(server.url),
      v2RequestFraming: { protocolVersion: MODERN, clientInfo: CLIENT_INFO, clientCapabilities: {} },
    });
  }

  it("runs a task to completion", async ({ expect }) => {
    const tasks = await session();
    try {
      const execution = await tasks.callTool("batch_process", { items: 2, secondsPerItem: 0.5 });
      expect(execution.kind).toBe("task");
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe("completed");
      expect(resultFromTaskOutcome(outcome)).toMatchObject({
        content: [{ type: "text", text: "Processed 2 items." }],
        structuredContent: { items: 2, checksum: 5 },
      });
    } finally {
      await tasks.close();
    }
  });

  it("cancels a running task", async ({ expect }) => {
    const tasks = await session();
    try {
      const execution = await tasks.callTool("countdown", { seconds: 60 });
      if (execution.kind !== "task") throw new Error("expected a task");
      await execution.cancel();
      const { outcome } = await execution.settle();
      expect(outcome.status).toBe("cancelled");
      expect(await getTask(server.url, execution.handle.taskId)).toMatchObject({ status: "cancelled" });
    } finally {
      await tasks.close();
    }
  });
});

describe("the SDK v1 client in the same server run", () => {
  it("still initializes as 2025-11-25 and runs task-augmented calls through tasks/result", async ({ expect }) => {
    const client = await connectClient(server.url);
    try {
      expect(client.getServerCapabilities()?.tasks).toEqual({
        list: {},
        cancel: {},
        requests: { tools: { call: {} } },
      });
      const stream = client.experimental.tasks.callToolStream(
        { name: "countdown", arguments: { seconds: 1 } },
        CallToolResultSchema,
        { task: { ttl: 60_000 } },
      );
      const kinds: string[] = [];
      let final: unknown;
      for await (const message of stream) {
        kinds.push(message.type);
        if (message.type === "result") final = message.result;
      }
      expect(kinds[0]).toBe("taskCreated");
      expect(final).toMatchObject({
        content: [{ type: "text", text: "Countdown of 1 s finished." }],
        _meta: { "io.modelcontextprotocol/related-task": expect.any(Object) },
      });
    } finally {
      await client.close();
    }
  });
});
