// The console's data routes (GET /tasks, POST /tasks/{id}/cancel) and its sign-in, on a real
// wrangler dev with API_KEYS: each principal sees and cancels only its own tasks.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { launchBrowser } from "./support/browser";
import { getTask, startTask } from "./support/tasks";
import { sharedServer } from "./support/dev-server";
import { KEYED_TOKENS, KEYED_VARS } from "./support/server-settings";
import { until } from "../until";

// It lists alice's and bob's tasks: no other file uses them on this shared server (support/server-settings.ts).
const server = sharedServer(KEYED_VARS);
let browser: Browser;
const alice = { Authorization: `Bearer ${KEYED_TOKENS.alice}` };
const bob = { Authorization: `Bearer ${KEYED_TOKENS.bob}` };
const aliceTasks: string[] = []; // oldest first
let bobTask = "";
const settle = until(200);

interface ListPage {
  principal: string;
  pollInterval: number;
  tasks: { taskId: string; status: string; tool: string; createdAt: string }[];
  nextCursor?: string;
}

async function list(headers: Record<string, string>, query = ""): Promise<{ status: number; body: ListPage }> {
  const response = await fetch(`${server.url}/tasks${query}`, { headers });
  return { status: response.status, body: (await response.json()) as ListPage };
}

const cancel = (taskId: string, headers: Record<string, string>) =>
  fetch(`${server.url}/tasks/${taskId}/cancel`, { method: "POST", headers });

beforeAll(async () => {
  browser = await launchBrowser();
  for (let i = 0; i < 5; i++)
    aliceTasks.push(await startTask(server.url, "batch_process", { items: 1, secondsPerItem: 0 }, alice));
  bobTask = await startTask(server.url, "countdown", { seconds: 120 }, bob);
});

afterAll(async () => {
  if (bobTask) await cancel(bobTask, bob).catch(() => undefined);
  await browser?.close();
});

describe("GET /tasks", () => {
  it("wants the same token as /mcp", async ({ expect }) => {
    const response = await fetch(`${server.url}/tasks`);
    expect(response.status).toBe(401);
    expect(response.headers.get("WWW-Authenticate")).toMatch(/^Bearer resource_metadata=/);
    expect((await fetch(`${server.url}/tasks`, { headers: { Authorization: "Bearer nope" } })).status).toBe(401);
  });

  it("lists only the caller's tasks, newest first, in cursor pages", async ({ expect }) => {
    const seen: ListPage["tasks"] = [];
    let query = "?limit=2";
    for (let pages = 0; pages < 10; pages++) {
      const { status, body } = await list(alice, query);
      expect(status).toBe(200);
      expect(body.principal).toBe("alice");
      expect(body.tasks.length).toBeLessThanOrEqual(2);
      seen.push(...body.tasks);
      if (body.nextCursor === undefined) break;
      query = `?limit=2&cursor=${encodeURIComponent(body.nextCursor)}`;
    }
    expect(seen.map((t) => t.taskId)).toEqual([...aliceTasks].reverse());
    expect(seen.every((t) => t.tool === "batch_process")).toBe(true);
    const bobs = await list(bob);
    expect(bobs.body.principal).toBe("bob");
    expect(bobs.body.tasks.map((t) => t.taskId)).toEqual([bobTask]);
    expect(bobs.body.pollInterval).toBeGreaterThan(0);
  });

  it("refuses a bad limit or cursor with 400 and says why", async ({ expect }) => {
    for (const query of ["?limit=0", "?limit=101", "?limit=abc", "?limit=-1", "?limit=1.5", "?limit="]) {
      const { status, body } = await list(alice, query);
      expect(status, query).toBe(400);
      expect(body, query).toMatchObject({ error: "bad_limit" });
    }
    for (const cursor of ["", "!!!", "x".repeat(200), Buffer.from("1:zz").toString("base64"), "%00"]) {
      const { status, body } = await list(alice, `?cursor=${encodeURIComponent(cursor)}`);
      expect(status, cursor).toBe(400);
      expect(body, cursor).toMatchObject({ error: "bad_cursor" });
    }
  });

  it("answers other methods with 405 and Allow", async ({ expect }) => {
    for (const method of ["PUT", "DELETE", "PATCH", "POST"]) {
      const response = await fetch(`${server.url}/tasks`, { method, headers: alice });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("Allow")).toBe("GET");
    }
  });
});

describe("POST /tasks/{id}/cancel", () => {
  it("cancels the caller's running task and returns it; a second cancel is 409", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 120 }, alice);
    const response = await cancel(taskId, alice);
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ taskId, status: "cancelled", tool: "countdown" });
    const again = await cancel(taskId, alice);
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({
      error: "task_finished",
      message: expect.stringContaining("already cancelled"),
      task: { taskId, status: "cancelled" },
    });
  });

  it("is 409 for a completed task, and leaves it completed", async ({ expect }) => {
    const [taskId] = aliceTasks;
    if (!taskId) throw new Error("no task");
    await vi.waitFor(async () => expect((await getTask(server.url, taskId, alice)).status).toBe("completed"), settle);
    const response = await cancel(taskId, alice);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      error: "task_finished",
      message: expect.stringContaining("already completed"),
    });
    expect((await getTask(server.url, taskId, alice)).status).toBe("completed");
  });

  it("is 404 for another principal's task, exactly as for an unknown or malformed id, and cancels nothing", async ({
    expect,
  }) => {
    const replies = [];
    for (const taskId of [bobTask, randomBytes(16).toString("hex"), "not-a-task-id", "F".repeat(32)]) {
      const response = await cancel(taskId, alice);
      replies.push({ status: response.status, body: await response.json() });
    }
    expect(new Set(replies.map((reply) => JSON.stringify(reply))).size).toBe(1);
    expect(replies[0]).toMatchObject({ status: 404, body: { error: "not_found" } });
    expect((await getTask(server.url, bobTask, bob)).status).toBe("working");
  });

  it("answers other methods with 405 and Allow", async ({ expect }) => {
    for (const method of ["GET", "PUT", "DELETE"]) {
      const response = await fetch(`${server.url}/tasks/${bobTask}/cancel`, { method, headers: bob });
      expect(response.status, method).toBe(405);
      expect(response.headers.get("Allow")).toBe("POST");
    }
  });
});

describe("the console with API keys", () => {
  let context: BrowserContext;
  beforeAll(async () => {
    context = await browser.newContext();
  });
  afterAll(async () => {
    await context?.close();
  });

  it("loads its page without a token, then asks for one and refuses a wrong one", async ({ expect }) => {
    expect((await fetch(`${server.url}/`)).status).toBe(200);
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.getByLabel("Token").waitFor({ state: "visible" });
    expect(await page.locator("[data-task-id]").count()).toBe(0);
    await page.getByLabel("Token").fill("wrong");
    await page.getByLabel("Token").press("Enter");
    await vi.waitFor(
      async () => expect(await page.locator("#sign-in-error").textContent()).toContain("refused"),
      settle,
    );
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
    await page.close();
  });

  /** A new tab signed in as alice, once her tasks are listed. */
  async function aliceSignedIn(): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${server.url}/`);
    await page.getByLabel("Token").fill(KEYED_TOKENS.alice);
    await page.getByRole("button", { name: "Sign in" }).click();
    await vi.waitFor(
      async () => expect(await page.locator("[data-task-id]").count()).toBeGreaterThanOrEqual(aliceTasks.length),
      settle,
    );
    return page;
  }

  it("shows only the signed-in principal's tasks, keeps the token for this tab only, and forgets them on sign-out", async ({
    expect,
  }) => {
    const page = await aliceSignedIn();
    const shown = await page
      .locator("[data-task-id]")
      .evaluateAll((cards) => cards.map((card) => card.getAttribute("data-task-id")));
    expect(shown).toEqual(expect.arrayContaining(aliceTasks));
    expect(shown).not.toContain(bobTask);
    expect(await page.locator("#principal").textContent()).toBe("alice");
    expect(await page.evaluate(() => localStorage.length)).toBe(0);
    expect(await context.cookies()).toEqual([]);

    await page.reload();
    await vi.waitFor(
      async () => expect(await page.locator("[data-task-id]").count()).toBeGreaterThanOrEqual(aliceTasks.length),
      settle,
    );
    const otherTab = await context.newPage();
    await otherTab.goto(`${server.url}/`);
    await otherTab.getByLabel("Token").waitFor({ state: "visible" });
    await otherTab.close();

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Token").waitFor({ state: "visible" });
    expect(await page.locator("[data-task-id]").count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.length)).toBe(0);

    // Signed in as someone else in the same tab: nothing of alice's comes back.
    await page.getByLabel("Token").fill(KEYED_TOKENS.bob);
    await page.getByLabel("Token").press("Enter");
    await vi.waitFor(async () => expect(await page.locator("#principal").textContent()).toBe("bob"), settle);
    await vi.waitFor(
      async () =>
        expect(
          await page
            .locator("[data-task-id]")
            .evaluateAll((cards) => cards.map((card) => card.getAttribute("data-task-id"))),
        ).toEqual([bobTask]),
      settle,
    );
    await page.close();
  });

  it("drops a list that answers after sign-out: the signed-out principal's tasks do not come back", async ({
    expect,
  }) => {
    const page = await aliceSignedIn();
    // Hold the console's next list until it has signed out (beside a second `npm test` the list
    // answered that late on its own, and put alice's tasks back on the sign-in screen).
    let held: (() => void) | undefined;
    const asked = new Promise<void>((heard) =>
      page.route(`${server.url}/tasks`, async (route) => {
        await new Promise<void>((release) => {
          held = release;
          heard();
        });
        await route.continue();
      }),
    );
    await asked;
    const late = page.waitForResponse(`${server.url}/tasks`);
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByLabel("Token").waitFor({ state: "visible" });
    held?.();
    await (await late).finished();
    // Two turns of the page's event loop: the old console merged the late list in the first.
    await page.evaluate(() => new Promise((turned) => setTimeout(() => setTimeout(turned))));
    expect(await page.locator("[data-task-id]").count()).toBe(0);
    expect(await page.locator("#console").isHidden()).toBe(true);
    await page.close();
  });
});
