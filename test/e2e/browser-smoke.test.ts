// The browser the page tests use starts from what `npm install` put on disk, and renders a page.
import { afterAll, beforeAll, describe, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchBrowser } from "./support/browser";

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
});
