// End-to-end tests: a real `wrangler dev` (workerd, no eval) driven by the SDK's real Client and raw HTTP.
import { defineConfig } from "vitest/config";
import { LongestFirst } from "./test/e2e/support/sequencer.ts";
import { EXTERNAL, TIMING } from "./test/e2e/support/suites.ts";

/** How e2e files run, here and in vitest.external.config.ts. */
export const E2E_OPTIONS = {
  environment: "node",
  // Hang guards: a test waits until what it awaits happens (test/until.ts); a server start, 4-5 s
  // idle, is the hook's longest wait.
  testTimeout: 300_000,
  hookTimeout: 120_000,
  fileParallelism: true,
  // The files mostly wait on the servers (a run used ~0.4 of the 2 cores at 2 workers), so more
  // files in flight shorten the run; docs/testing.md has the figures.
  maxWorkers: 6,
  // Each worker keeps the modules it loaded (the SDKs, zod, the support files) for its next file:
  // loading them again per file cost ~90 s of the workers' time. Every file still gets its own
  // server handles and clients (support/dev-server.ts).
  isolate: false,
  // Longest first from a committed table, so a fresh clone packs the files as well as a warm cache.
  sequence: { sequencer: LongestFirst },
} as const;

/**
 * Files with the same settings share one wrangler dev (support/dev-server.ts); the pool starts them.
 * Chromium is unpacked before any file starts: files launching it together raced to unpack it.
 */
export const GLOBAL_SETUP = ["test/e2e/support/chromium.ts", "test/e2e/support/server-pool.ts"];

export default defineConfig({
  test: {
    ...E2E_OPTIONS,
    projects: [
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          // The external programs' files run in `npm run test:external` (vitest.external.config.ts).
          exclude: [...TIMING, ...EXTERNAL],
          globalSetup: GLOBAL_SETUP,
          sequence: { groupOrder: 0 },
        },
      },
      { extends: true, test: { name: "e2e-timing", include: TIMING, sequence: { groupOrder: 1 } } },
    ],
  },
});
