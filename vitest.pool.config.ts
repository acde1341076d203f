// Pool tests: Durable Objects and the queue consumer inside workerd (Miniflare).
// Test-only settings live here, not in wrangler.toml.
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [
    cloudflareTest({
      wrangler: { configPath: "./wrangler.toml" },
      miniflare: {
        // A webhook secret (a fixed test value) so the webhook consumer signs and attempts deliveries;
        // the tests that use it stub fetch, so nothing leaves the machine.
        bindings: {
          DISPATCH_GRACE_MS: "60000",
          LEASE_MS: "3000",
          JOB_RETRY_BASE_SECONDS: "1",
          // Where a job's callback URLs point (job.callback); the tests POST to them through worker.fetch.
          PUBLIC_URL: "http://127.0.0.1:8787",
          // Seals what tasks keep of their callers and signs callback URLs (a fixed test value, 32 bytes).
          CALLER_KEY: "Kq3s1bJ0m0dC1dR7m7o8wX5YI7m0fU8lq2bqvY9t1hE=",
          WEBHOOK_SECRET: "whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD",
        },
      },
    }),
  ],
  // "mcp-task-worker" is this checkout's source (tsconfig.json "paths"), not the published build.
  resolve: { tsconfigPaths: true },
  test: {
    include: ["test/pool/**/*.test.ts"],
    // One runner for every file: a runner's start (loading src/ and its dependencies into workerd)
    // cost 10-20 s per file, 16 files one after another; its own storage per test still isolates
    // them (docs/testing.md, "Where the time goes").
    isolate: false,
    // A hang guard only: tests wait on events (vi.waitFor until the check passes, test/until.ts), and
    // a loaded 2-core machine runs them ten times slower than an idle one (docs/testing.md, "Waits").
    testTimeout: 300_000,
    // Every task the pool tests create logs its transitions (src/core/object/transition-log.ts): keep
    // them out of the test output; test/e2e/transition-log.test.ts checks them.
    // The step consumer's one line per batch (fan_out.batch) likewise.
    onConsoleLog: (log) => !log.includes('"task.transition"') && !log.includes('"fan_out.batch"'),
  },
});
