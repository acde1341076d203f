// The task console (GET /) in headless Chromium against a real wrangler dev on loopback, where it
// needs no token: bars move from the event streams, Cancel cancels, results show, new tasks appear.
// With UPDATE_SCREENSHOTS=1 it also rewrites docs/console.png.
import { copyFileSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, afterEach, beforeAll, describe, it, vi } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchBrowser } from "./support/browser";
import { getTask, startTask } from "./support/tasks";
import { ownServer } from "./support/dev-server";
import { until } from "../until";

// The console lists the anonymous principal's tasks, which other files' tasks on a shared server would change.
const server = ownServer();
let browser: Browser;
const pages: Page[] = [];
const settle = until(200);

beforeAll(async () => {
  browser = await launchBrowser();
});

afterEach(async () => {
  for (const page of pages.splice(0)) await page.close();
});

afterAll(async () => {
  await browser?.close();
});

/** Opens the console and records what a person would not see: CSP violations and foreign requests. */
async function openConsole(
  options: { colorScheme?: "light" | "dark"; viewport?: { width: number; height: number } } = {},
) {
  const page = await browser.newPage({
    colorScheme: options.colorScheme ?? "light",
    viewport: options.viewport ?? { width: 1000, height: 800 },
  });
  pages.push(page);
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("request", (request) => requests.push(request.url()));
  await page.goto(`${server.url}/`);
  return { page, problems, requests };
}

const card = (page: Page, taskId: string) => page.locator(`[data-task-id="${taskId}"]`);
const bar = (page: Page, taskId: string) =>
  card(page, taskId)
    .locator("progress")
    .evaluate((el: HTMLProgressElement) => ({ value: el.value, max: el.max }));

describe("task console", () => {
  it("serves one self-contained page with a strict CSP and no third-party requests", async ({ expect }) => {
    const response = await fetch(`${server.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    const csp = response.headers.get("Content-Security-Policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'(;|$)/);
    expect(csp).toContain("connect-src 'self'");
    expect(csp).not.toContain("unsafe");
    expect(response.headers.get("X-Frame-Options")).toBe("DENY");

    const taskId = await startTask(server.url, "batch_process", { items: 1, secondsPerItem: 0 });
    const { page, problems, requests } = await openConsole();
    await vi.waitFor(async () => expect(await card(page, taskId).count()).toBe(1), settle);
    expect(problems).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(`${server.url}/`) && !url.startsWith("data:"))).toEqual([]);
  });

  it("the built pages are reached only through the Worker's routes, never as files", async ({ expect }) => {
    // The pages are text modules of the Worker (src/pages): no file of theirs has a route.
    for (const path of ["/console.html", "/task-card.html"]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(await response.json(), path).toMatchObject({ error: "not_found" });
    }
  });

  it("moves a running countdown's bar as its progress events arrive", async ({ expect }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 60 });
    const { page } = await openConsole();
    let first = 0;
    await vi.waitFor(async () => {
      const { value, max } = await bar(page, taskId);
      expect(max).toBe(60);
      expect(value).toBeGreaterThan(0);
      first = value;
    }, settle);
    await vi.waitFor(async () => expect((await bar(page, taskId)).value).toBeGreaterThan(first), settle);
    await expect(card(page, taskId).locator(".status").textContent()).resolves.toBe("working");
    await expect(card(page, taskId).locator('[data-action="cancel"]').count()).resolves.toBe(1);
    await fetch(`${server.url}/tasks/${taskId}/cancel`, { method: "POST" });
  });

  it("cancels a running task with its Cancel button: the status turns cancelled and the button goes", async ({
    expect,
  }) => {
    const taskId = await startTask(server.url, "countdown", { seconds: 120 });
    const { page } = await openConsole();
    await vi.waitFor(async () => expect((await bar(page, taskId)).value).toBeGreaterThan(0), settle);
    await card(page, taskId).locator('[data-action="cancel"]').click();
    await vi.waitFor(async () => {
      expect(await card(page, taskId).locator(".status").textContent()).toBe("cancelled");
      expect(await card(page, taskId).locator('[data-action="cancel"]').count()).toBe(0);
    }, settle);
    expect((await getTask(server.url, taskId)).status).toBe("cancelled");
  });

  it("shows a waiting task's question as a form; Submit answers it and the task goes on to its result", async ({
    expect,
  }) => {
    const taskId = await startTask(server.url, "deploy", { service: "api", version: "v2" });
    const { page, problems } = await openConsole();
    const form = card(page, taskId).locator('form.question[data-key="confirm"]');
    await vi.waitFor(async () => expect(await form.count()).toBe(1), settle);
    await expect(form.locator(".ask").textContent()).resolves.toBe("Deploy api v2 to production?");
    await expect(card(page, taskId).locator(".status").textContent()).resolves.toBe("input_required");
    // A note longer than the form allows: the server refuses it and the form says why.
    await form.locator('input[name="note"]').fill("x".repeat(501));
    await form.locator('[data-action="answer"]').click();
    await vi.waitFor(
      async () => expect(await form.locator(".question-error").textContent()).toContain('"note"'),
      settle,
    );
    await form.locator('input[name="note"]').fill("ship it");
    await form.locator('input[name="confirm"]').check();
    await form.locator('[data-action="answer"]').click();
    await vi.waitFor(
      async () => expect(await card(page, taskId).locator(".status").textContent()).toBe("completed"),
      settle,
    );
    await expect(card(page, taskId).locator(".outcome").textContent()).resolves.toContain("Deployed api v2");
    expect(await card(page, taskId).locator("form.question").count()).toBe(0);
    expect((await getTask(server.url, taskId)).status).toBe("completed");
    expect(problems.filter((p) => !p.includes("422"))).toEqual([]);
  });

  it("shows a finished task's result text and structured content, with a full bar", async ({ expect }) => {
    const taskId = await startTask(server.url, "batch_process", { items: 3, secondsPerItem: 0 });
    await vi.waitFor(async () => expect((await getTask(server.url, taskId)).status).toBe("completed"), settle);
    const { page } = await openConsole();
    await vi.waitFor(
      async () => expect(await card(page, taskId).locator(".outcome").textContent()).toContain("Processed 3 items."),
      settle,
    );
    expect(await card(page, taskId).locator(".status").textContent()).toBe("completed");
    expect(await bar(page, taskId)).toEqual({ value: 3, max: 3 });
    expect(await card(page, taskId).locator(".structured").textContent()).toContain("checksum14");
    expect(await card(page, taskId).locator('[data-action="cancel"]').count()).toBe(0);
  });

  it("shows a failed task's error", async ({ expect }) => {
    const taskId = await startTask(server.url, "external_job", { durationSeconds: 2, simulate: "reject" });
    const { page } = await openConsole();
    await vi.waitFor(async () => {
      expect(await card(page, taskId).locator(".status").textContent()).toBe("failed");
      expect(await card(page, taskId).locator(".outcome .error").textContent()).toContain("rejected");
    }, settle);
  });

  it("shows a task's steps on demand", async ({ expect }) => {
    const taskId = await startTask(server.url, "batch_process", { items: 4, secondsPerItem: 0 });
    await vi.waitFor(async () => expect((await getTask(server.url, taskId)).status).toBe("completed"), settle);
    const { page } = await openConsole();
    const details = card(page, taskId).locator(".more");
    await vi.waitFor(async () => expect(await card(page, taskId).count()).toBe(1), settle);
    expect(await details.isVisible()).toBe(false);
    await card(page, taskId).locator(".toggle").click();
    await vi.waitFor(
      async () =>
        expect(await details.locator(".steps li").allTextContents()).toEqual(["item-1", "item-2", "item-3", "item-4"]),
      settle,
    );
  });

  it("shows a task created after the page loaded without a reload, on top", async ({ expect }) => {
    const { page } = await openConsole();
    await page.locator("#console").waitFor({ state: "visible" });
    const taskId = await startTask(server.url, "countdown", { seconds: 30 });
    await vi.waitFor(
      async () => expect(await page.locator("[data-task-id]").first().getAttribute("data-task-id")).toBe(taskId),
      settle,
    );
    await vi.waitFor(async () => expect((await bar(page, taskId)).value).toBeGreaterThan(0), settle);
    await fetch(`${server.url}/tasks/${taskId}/cancel`, { method: "POST" });
  });

  it("keeps every running task moving when more run than it streams at once over HTTP/1.1", async ({ expect }) => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await startTask(server.url, "countdown", { seconds: 60 }));
    const { page, requests } = await openConsole();
    const firsts = new Map<string, number>();
    await vi.waitFor(async () => {
      for (const taskId of ids) {
        const { value } = await bar(page, taskId);
        expect(value, taskId).toBeGreaterThan(0);
        firsts.set(taskId, value);
      }
    }, settle);
    await vi.waitFor(async () => {
      for (const taskId of ids)
        expect((await bar(page, taskId)).value, taskId).toBeGreaterThan(firsts.get(taskId) ?? 0);
    }, settle);
    // A browser holds 6 connections per HTTP/1.1 host: the page streams 4 tasks and polls the rest.
    const streamed = new Set(requests.filter((url) => url.endsWith("/events")).map((url) => url.split("/")[4]));
    expect(streamed.size).toBeLessThanOrEqual(4);
    for (const taskId of ids) await fetch(`${server.url}/tasks/${taskId}/cancel`, { method: "POST" });
  });

  it("renders tasks in every state for the README screenshot", async ({ expect }) => {
    // Oldest first: the page lists newest first.
    const done = await startTask(server.url, "countdown", { seconds: 2 });
    const cancelled = await startTask(server.url, "countdown", { seconds: 300 });
    const failed = await startTask(server.url, "external_job", { durationSeconds: 2, simulate: "reject" });
    const batch = await startTask(server.url, "batch_process", { items: 6, secondsPerItem: 0.2 });
    const slow = await startTask(server.url, "batch_process", { items: 40, secondsPerItem: 1 });
    const running = await startTask(server.url, "countdown", { seconds: 90 });
    const waiting = await startTask(server.url, "deploy", { service: "billing", version: "v42" });
    await vi.waitFor(
      async () => expect((await getTask(server.url, cancelled)).progress?.progress ?? 0).toBeGreaterThanOrEqual(3),
      settle,
    );
    await fetch(`${server.url}/tasks/${cancelled}/cancel`, { method: "POST" });
    for (const taskId of [done, failed, batch])
      await vi.waitFor(
        async () => expect(["completed", "failed"]).toContain((await getTask(server.url, taskId)).status),
        settle,
      );

    const { page, problems } = await openConsole({ viewport: { width: 960, height: 1080 } });
    await vi.waitFor(async () => {
      expect(await card(page, waiting).locator('form.question[data-key="confirm"]').count()).toBe(1);
      for (const taskId of [slow, running]) expect((await bar(page, taskId)).value).toBeGreaterThanOrEqual(5);
      expect(await card(page, batch).locator(".outcome").textContent()).toContain("Processed 6 items.");
    }, until(250));
    await card(page, batch).locator(".toggle").click();
    await vi.waitFor(async () => expect(await card(page, batch).locator(".steps li").count()).toBe(6), settle);
    const shot = join(mkdtempSync(join(tmpdir(), "console-shot-")), "console.png");
    await page.screenshot({ path: shot });
    expect(problems).toEqual([]);
    if (process.env["UPDATE_SCREENSHOTS"] === "1")
      copyFileSync(shot, resolve(import.meta.dirname, "../../docs/console.png"));
    for (const taskId of [slow, running, waiting])
      await fetch(`${server.url}/tasks/${taskId}/cancel`, { method: "POST" });
  });
});
