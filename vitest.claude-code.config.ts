// The real Claude Code CLI against a real `wrangler dev`: kept out of `npm test` (the CLI is about
// 360 MB, installed on demand by the global setup). Run it with `npm run test:claude-code`.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/claude-code/**/*.test.ts"],
    environment: "node",
    globalSetup: ["test/claude-code/support/install-claude-code.ts"],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    // Each file starts its own wrangler dev and stand-in Messages API; two CLIs at once are plenty.
    fileParallelism: true,
    maxWorkers: 2,
  },
});
