// Who answered a task's question (docs/human-in-the-loop.md, "Who answered"): a decline or cancel
// that comes back sooner than a person could read the question is the client's own (headless Codex,
// Copilot CLI and claude -p answer every form at once), and the tool's words say so and what a person
// can still do; a later one is a person's. The SDK clients' answers at once (2025 elicitation, 2026
// input_required) are in model-facing.test.ts; here the other paths, a Workflow, and a person's no.
import { afterAll, describe, it } from "vitest";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { sharedServer } from "./support/dev-server";
import { LONG_INLINE_VARS } from "./support/server-settings";
import { answeredOnItsOwn, postInput, startDeploy, taskDoc, textOf } from "./support/hitl";
import { rpc, type ParsedSseEvent } from "./support/mcp";
import { TASKS, getTask, modern, resultOf, startTask } from "./support/modern";
import { until } from "../until";
import { openSse } from "./support/sse-reader";
import { question } from "./support/workflows";

// The Workflow tests' settings: a Workflow-backed call has room to end inline. The person floor at
// 5 s, so an answer sent at once stays "at once" under load (support/server-settings.ts says why).
const server = sharedServer(LONG_INLINE_VARS);
const FLOOR_SECONDS = Number(LONG_INLINE_VARS.PERSON_FLOOR_MS) / 1000;
const closers: (() => Promise<unknown>)[] = [];

afterAll(async () => {
  for (const close of closers) await close().catch(() => undefined);
});

const statusOf = (event: ParsedSseEvent): string | undefined =>
  event.event === "status" ? String(JSON.parse(event.data).status) : undefined;

/** Follows the task's event log until `until` holds for one of its events. */
async function untilEvent(taskId: string, until: (event: ParsedSseEvent) => boolean): Promise<void> {
  const events = await openSse(`${server.url}/tasks/${taskId}/events`);
  try {
    for (;;) {
      const event = await events.next(60_000);
      if (!event) throw new Error(`the event log of ${taskId} ended first:\n${events.raw().slice(-2000)}`);
      if (until(event)) return;
    }
  } finally {
    events.drop();
  }
}

/** The task's final text, once its event log says it ended. */
async function finalText(taskId: string): Promise<string> {
  await untilEvent(taskId, (event) => event.event === "result");
  return textOf((await taskDoc(server.url, taskId)).result);
}

describe("the client answered on its own", () => {
  it("2026 tasks/update: a decline at once ends deploy with the client's own words", async ({ expect }) => {
    const taskId = await startTask(server.url, "deploy", { service: "api", version: "v2" });
    await untilEvent(taskId, (event) => statusOf(event) === "input_required");
    resultOf(
      await modern(
        server.url,
        "tasks/update",
        { taskId, inputResponses: { confirm: { action: "decline" } } },
        { capabilities: TASKS },
      ),
    );
    expect(await finalText(taskId)).toBe(answeredOnItsOwn("declined"));
  });

  it("POST /tasks/{id}/input: a cancel at once is the client's too", async ({ expect }) => {
    const taskId = await startDeploy(server.url);
    await untilEvent(taskId, (event) => statusOf(event) === "input_required");
    expect((await postInput(server.url, taskId, { confirm: { action: "cancel" } })).status).toBe(200);
    expect(await finalText(taskId)).toBe(answeredOnItsOwn("cancelled"));
  });

  it("a Workflow-backed tool reads the same fact: publish_report declined at once by a 2025 client", async ({
    expect,
  }) => {
    const client = new Client({ name: "who-answered", version: "1" }, { capabilities: { elicitation: {} } });
    closers.push(() => client.close());
    client.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
    const result = await client.callTool({ name: "publish_report", arguments: { pages: 1 } }, undefined, {
      timeout: 60_000,
    });
    expect(textOf(result as { content: { type: string; text: string }[] })).toBe(
      `Not published: the client declined "${question(1)}" on its own, at once, so no one saw or answered the question. ` +
        "To publish, call publish_report again where a person can answer: from a client that shows them the question, " +
        "or from one that lets it wait, so they can answer it with task_input or in this server's task console (its / page).",
    );
  });
});

describe("the floor runs from the client's first sight of the question", () => {
  it("2026 polling: a question first seen a floor after it was asked and declined at once is the client's own", async ({
    expect,
  }) => {
    const taskId = await startTask(server.url, "deploy", { service: "api", version: "v2" });
    // Waits on the principal's task list, which shows the status but is no read of the task itself.
    await expect
      .poll(async () => {
        const list = (await (await fetch(`${server.url}/tasks`)).json()) as {
          tasks: { taskId: string; status: string }[];
        };
        return list.tasks.find((task) => task.taskId === taskId)?.status;
      }, until())
      .toBe("input_required");
    // A floor passes after the asking (a countdown that long, no sleep) before the client's first poll.
    const timer = await rpc(server.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "countdown", arguments: { seconds: FLOOR_SECONDS } },
    });
    expect(JSON.stringify(timer.body)).toContain(`Countdown of ${FLOOR_SECONDS} s finished.`);
    expect(Object.keys((await getTask(server.url, taskId))["inputRequests"] ?? {})).toEqual(["confirm"]);
    resultOf(
      await modern(
        server.url,
        "tasks/update",
        { taskId, inputResponses: { confirm: { action: "decline" } } },
        { capabilities: TASKS },
      ),
    );
    expect(await finalText(taskId)).toBe(answeredOnItsOwn("declined"));
  });
});

describe("a person answered", () => {
  it("a decline after the floor reads as the person's", async ({ expect }) => {
    const taskId = await startDeploy(server.url);
    await untilEvent(taskId, (event) => statusOf(event) === "input_required");
    // A countdown as long as the floor that ends after the question was asked: at least the floor has
    // passed on the task's clock too, with no sleep in the test.
    const timer = await rpc(server.url, {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "countdown", arguments: { seconds: FLOOR_SECONDS } },
    });
    expect(JSON.stringify(timer.body)).toContain(`Countdown of ${FLOOR_SECONDS} s finished.`);
    expect((await postInput(server.url, taskId, { confirm: { action: "decline" } })).status).toBe(200);
    expect(await finalText(taskId)).toBe("Not deployed: the person declined deploying api v2 to production.");
  });
});
