// End-to-end tests: a real `wrangler dev` (workerd, no eval) driven by the SDK's real Client and raw HTTP.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Files with the same settings share one wrangler dev (support/dev-server.ts); the pool starts them.
    globalSetup: ["test/e2e/support/server-pool.ts"],
    fileParallelism: true,
    maxWorkers: 2,
  },
});
