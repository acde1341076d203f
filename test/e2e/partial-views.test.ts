// Partial results in the views people look at (docs/partial-results.md): the console shows a running
// task's pieces live from its event stream, and task_activity (the task card's poll) returns them
// after its cursor, only what is new.
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./support/browser";
import { sharedServer } from "./support/dev-server";
import { KEYED_TOKENS, KEYED_VARS } from "./support/server-settings";
import { rpc } from "./support/mcp";
import { getTask, startTask } from "./support/tasks";
import { until } from "../until";

// The console lists its principal's tasks: views is its own on a shared server, signed in with its token
// (the console reads the same event streams signed in or not; console.test.ts has the anonymous view).
const server = sharedServer(KEYED_VARS);
const auth = { Authorization: `Bearer ${KEYED_TOKENS.views}` };
const settle = until(200);
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const items = (count: number) => Array.from({ length: count }, (_, i) => `Item ${i + 1} of ${count}: ${(i + 1) ** 2}.`);

describe("the console", () => {
  it("shows a running task's pieces as they arrive, in order, each once", async ({ expect }) => {
    const page = await browser.newPage();
    try {
      await page.goto(`${server.url}/`);
      await page.getByLabel("Token").fill(KEYED_TOKENS.views);
      await page.getByRole("button", { name: "Sign in" }).click();
      const taskId = await startTask(server.url, "batch_process", { items: 4, secondsPerItem: 1 }, auth);
      const pieces = page.locator(`[data-task-id="${taskId}"] [data-partial] li`);
      await vi.waitFor(async () => expect(await pieces.count()).toBeGreaterThanOrEqual(1), settle);
      expect((await getTask(server.url, taskId, auth)).status).toBe("working");
      await vi.waitFor(async () => expect(await pieces.allTextContents()).toEqual(items(4)), settle);
      expect(await pieces.evaluateAll((nodes) => nodes.map((node) => node.getAttribute("data-n")))).toEqual([
        "1",
        "2",
        "3",
        "4",
      ]);
    } finally {
      await page.close();
    }
  });
});

describe("task_activity, the card's poll", () => {
  const activity = async (taskId: string, after?: number) => {
    const reply = await rpc(
      server.url,
      {
        jsonrpc: "2.0",
        id: 5,
        method: "tools/call",
        params: { name: "task_activity", arguments: { taskId, ...(after !== undefined && { after }) } },
      },
      { headers: auth },
    );
    // A tools/call may answer as an SSE stream: its last message is the answer.
    const answer: unknown = Array.isArray(reply.body) ? reply.body.at(-1) : reply.body;
    return (answer as { result: { structuredContent: { partial: { n: number; text: string }[]; cursor: number } } })
      .result.structuredContent;
  };

  it("returns the pieces after its cursor, and only what is new after it", async ({ expect }) => {
    const taskId = await startTask(server.url, "batch_process", { items: 3, secondsPerItem: 0 }, auth);
    await vi.waitFor(async () => expect((await getTask(server.url, taskId, auth)).status).toBe("completed"), settle);
    const all = await activity(taskId);
    expect(all.partial.map(({ n, text }) => ({ n, text }))).toEqual(items(3).map((text, i) => ({ n: i + 1, text })));
    expect((await activity(taskId, all.cursor)).partial).toEqual([]);
  });
});
