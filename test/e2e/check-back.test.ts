import { afterAll, beforeAll, describe, it, vi } from "vitest";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { sharedServer } from "./support/dev-server";
import { ONE_SECOND_VARS } from "./support/server-settings";
import { connectClient } from "./support/mcp";
import { until } from "../until";

// A 1 s inline wait (support/server-settings.ts), shared with get-reconnect and task-card.
const server = sharedServer(ONE_SECOND_VARS);
let client: Client;

type Content = { type: string; text?: string; uri?: string };
interface ToolReply {
  content: Content[];
  isError?: boolean;
  structuredContent?: { status?: string; progress?: number; total?: number };
}

beforeAll(async () => {
  // A short inline budget, so a call of a few seconds already outlasts it.
  // A model-style client: it declares no tasks capability and only ever calls tools.
  client = await connectClient(server.url, { capabilities: {}, headers: { Authorization: "Bearer alice-token" } });
});

afterAll(async () => {
  await client?.close();
});

const call = async (name: string, args: Record<string, unknown>): Promise<ToolReply> =>
  (await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 })) as ToolReply;
const textOf = (reply: ToolReply): string =>
  reply.content
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");

/** What the model does with a task link: pull the taskId out of the resource_link. */
function taskIdFrom(reply: ToolReply): string {
  const link = reply.content.find((c) => c.type === "resource_link");
  const match = /^task:\/\/([0-9a-f]{32})$/.exec(link?.uri ?? "");
  if (!match?.[1]) throw new Error(`no task link in ${JSON.stringify(reply)}`);
  return match[1];
}

// Concurrent: the tests share one client but each follows its own task, and the longest waits out
// task_result's 25 s on the server's clock while the others run.
describe.concurrent("check-back tools for clients without the tasks capability", () => {
  it("are listed as quick tools taking a taskId", async ({ expect }) => {
    const { tools } = await client.listTools();
    for (const name of ["task_status", "task_result", "task_cancel"]) {
      const tool = tools.find((t) => t.name === name);
      expect(tool?.execution?.taskSupport, name).toBe("forbidden");
      expect(tool?.inputSchema.required).toEqual(["taskId"]);
    }
  });

  it("let a model finish a tool call that outlasts the inline budget with tools/call alone", async ({ expect }) => {
    const first = await call("countdown", { seconds: 4 });
    expect(first.isError).toBeFalsy();
    expect(textOf(first)).toMatch(/task_status/);
    expect(textOf(first)).toMatch(/task_result/);
    const taskId = taskIdFrom(first);

    // The first answer is the still-running one: the task outlasted the inline budget. (Not the first
    // task_status: on a loaded machine the 4 s countdown can end before that call.)
    expect(first.structuredContent?.status).toBe("working");
    await vi.waitFor(async () => {
      const status = await call("task_status", { taskId });
      expect(textOf(status)).toContain(taskId);
      expect(status.structuredContent?.status).toBe("completed");
    }, until(500));

    const result = await call("task_result", { taskId });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: "text", text: "Countdown of 4 s finished." }]);
  });

  it("task_result holds a running task's call for its end (25 s at most), then says it is not finished yet", async ({
    expect,
  }) => {
    const first = await call("countdown", { seconds: 60 });
    const taskId = taskIdFrom(first);
    const reply = await call("task_result", { taskId });
    expect(reply.isError).toBeFalsy();
    expect(textOf(reply)).toMatch(/^Not the result yet: /);
    expect(textOf(reply)).toMatch(new RegExp(`Call task_result with taskId "${taskId}" in about \\d+ s`));
    expect(reply.structuredContent?.status).toBe("working");
    await call("task_cancel", { taskId });
  });

  it("task_result brings the result of a task that ends while it waits, in one call", async ({ expect }) => {
    // 8 s outlasts the 1 s inline wait by far, but not task_result's wait: a model that calls back at
    // once (agents halt a turn at the 5th identical call in a row) gets the end, not "not yet".
    const taskId = taskIdFrom(await call("countdown", { seconds: 8 }));
    const reply = await call("task_result", { taskId });
    expect(reply.isError).toBeFalsy();
    expect(reply.content).toEqual([{ type: "text", text: "Countdown of 8 s finished." }]);
  });

  it("task_cancel stops a running task; a second cancel and unknown tasks are tool errors", async ({ expect }) => {
    const taskId = taskIdFrom(await call("countdown", { seconds: 120 }));
    const cancelled = await call("task_cancel", { taskId });
    expect(cancelled.isError).toBeFalsy();
    expect(cancelled.structuredContent?.status).toBe("cancelled");
    expect((await call("task_status", { taskId })).structuredContent?.status).toBe("cancelled");
    const again = await call("task_cancel", { taskId });
    expect(again.isError).toBe(true);
    expect(textOf(again)).toMatch(/already cancelled/);
    for (const name of ["task_status", "task_result", "task_cancel"]) {
      const unknown = await call(name, { taskId: "0".repeat(32) });
      expect(unknown.isError, name).toBe(true);
      expect(textOf(unknown), name).toMatch(/No task/);
    }
  });

  it("are bound to the caller's principal: another key's task is not found", async ({ expect }) => {
    const taskId = taskIdFrom(await call("countdown", { seconds: 60 }));
    const bob = await connectClient(server.url, { capabilities: {}, headers: { Authorization: "Bearer bob-token" } });
    try {
      for (const name of ["task_status", "task_result", "task_cancel"]) {
        const reply = (await bob.callTool({ name, arguments: { taskId } })) as ToolReply;
        expect(reply.isError, name).toBe(true);
        expect(textOf(reply), name).toMatch(/No task/);
      }
    } finally {
      await bob.close();
    }
    expect((await call("task_status", { taskId })).structuredContent?.status).toBe("working");
    await call("task_cancel", { taskId });
  });

  it("refuse calls without a taskId with -32602", async ({ expect }) => {
    await expect(client.callTool({ name: "task_status", arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });
});
