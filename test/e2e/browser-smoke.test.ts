// The browser the page tests use starts from what `npm install` put on disk, renders a page, and
// runs the project's console: its script loads under the page's CSP, lists the caller's tasks and
// goes live. A broken console bundle, CSP hash or /tasks route fails it.
import { afterAll, beforeAll, describe, it, vi } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./support/browser";
import { sharedServer } from "./support/dev-server";
import { until } from "../until";

const server = sharedServer();
const settle = until(200);

describe("headless browser", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it("renders a page and reads a progress bar from it", async ({ expect }) => {
    const page = await browser.newPage();
    await page.setContent('<progress value="3" max="10"></progress>');
    expect(await page.locator("progress").evaluate((el: HTMLProgressElement) => [el.value, el.max])).toEqual([3, 10]);
    await page.close();
  });

  it("runs the console page: it lists the caller's tasks and goes live, with no error", async ({ expect }) => {
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    try {
      const response = await page.goto(`${server.url}/`);
      expect(response?.status()).toBe(200);
      // Only the console's script shows the task list and names the principal, after its first GET /tasks.
      await vi.waitFor(async () => expect(await page.locator("#console").isVisible()).toBe(true), settle);
      expect((await page.locator("#principal").textContent())?.length ?? 0).toBeGreaterThan(0);
      expect(await page.locator("#live").getAttribute("data-state")).toBe("ok");
      expect(await page.locator("#sign-in").isVisible()).toBe(false);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});
