// End-to-end tests: a real `wrangler dev` (workerd, no eval) driven by the SDK's real Client and raw HTTP.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/e2e/**/*.test.ts"],
    environment: "node",
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Each file starts its own wrangler dev on its own port and state directory.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
