/**
 * Headless Chromium for the tests that look at pages: the binary ships inside the
 * `@sparticuz/chromium` npm package (unpacked to the temp folder once per machine, by
 * support/chromium.ts), so `npm install` is all a fresh machine needs; `playwright-core` drives it.
 */
import sparticuz from "@sparticuz/chromium";
import { chromium, type Browser } from "playwright-core";
import { unpackedChromium } from "./chromium";

/**
 * Flags of the Lambda build that would hide real browser behaviour from the tests, and
 * `--single-process`, with which closing a page's context ends the whole browser.
 */
const DROPPED = new Set([
  "--disable-web-security",
  "--allow-running-insecure-content",
  "--single-process",
  "--use-gl=angle",
  "--use-angle=swiftshader",
  "--enable-unsafe-swiftshader",
  "--in-process-gpu",
  "--ignore-gpu-blocklist",
]);

/** Flags that keep Chromium off the network this machine does not have (it retries refused connections otherwise). */
const QUIET = [
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
  "--disable-gpu",
];

export async function launchBrowser(): Promise<Browser> {
  const args = [...sparticuz.args.filter((arg) => !DROPPED.has(arg)), ...QUIET];
  return chromium.launch({ executablePath: await unpackedChromium(), args, headless: true });
}
