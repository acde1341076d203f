/**
 * Which e2e files run where. Most run in `npm test` (vitest.e2e.config.ts); two kinds do not run
 * with the rest:
 * - TIMING: files whose assertions are timings run after the others, alone, so the suite's own load
 *   is off them.
 * - EXTERNAL: files that drive large programs of someone else's (headless Chromium, the public MCP
 *   conformance CLI, the Inspector CLI and mcp-remote, Cloudflare's local Workflows engine, npm and wrangler in a fresh clone or a consumer of
 *   the packed package: the template's own cut-down copy, the example adopters installed from it): about a
 *   fifth of the e2e suite's CPU, and its longest file. They run in `npm run test:external`
 *   (vitest.external.config.ts), which `.ci/run` runs after `npm test` (docs/testing.md).
 */
export const TIMING = ["test/e2e/polling.test.ts"];

export const EXTERNAL = [
  "test/e2e/browser-smoke.test.ts",
  "test/e2e/console.test.ts",
  "test/e2e/task-card.test.ts",
  "test/e2e/conformance.test.ts",
  "test/e2e/clients.test.ts",
  "test/e2e/fresh-clone.test.ts",
  "test/e2e/package-consumer.test.ts",
  "test/e2e/template-on-package.test.ts",
  "test/e2e/adopt-create-mcp-handler.test.ts",
  "test/e2e/adopt-mcp-agent.test.ts",
  "test/e2e/adopt-dual-lane.test.ts",
  "test/e2e/adopt-sdk-v1-handler.test.ts",
  // A fixture of its own installed from the tarball (test/fixtures/adopter-authless), two servers.
  "test/e2e/adopt-authless.test.ts",
  "test/e2e/adopt-fuzz.test.ts",
  "test/e2e/adopt-origin.test.ts",
  // Cloudflare's local Workflows engine under wrangler dev, with restarts, and the two longest
  // crash-recovery files beyond recovery.test.ts (several SIGKILLs each), which stays in npm test.
  "test/e2e/workflows.test.ts",
  "test/e2e/workflows-recovery.test.ts",
  "test/e2e/partial-recovery.test.ts",
  "test/e2e/hitl-recovery.test.ts",
  "test/e2e/fan-out-recovery.test.ts",
  "test/e2e/events-recovery.test.ts",
  // A SIGKILL with a ten-minute lease, resumed at the first request (40 s alone).
  "test/e2e/restart-resume.test.ts",
  // Release 0.1.0 (unpacked from git) stopped mid-work and this one started on its state, twice (118 s alone).
  "test/e2e/upgrade-rehearsal.test.ts",
  // Other Workers on the package (test/fixtures), on wrangler dev, with restarts and long sleeps.
  "test/e2e/adopt-questions.test.ts",
  "test/e2e/adopt-caller.test.ts",
  "test/e2e/adopt-caller-key.test.ts",
  "test/e2e/concurrency.test.ts",
  "test/e2e/examples-installed.test.ts",
  // examples/dual-lane installed at each end of the agents and zod peer ranges (two installs).
  "test/e2e/peer-ranges.test.ts",
  // docs/adopting.md's listing in a copy of an installed example.
  "test/e2e/adopting-listing.test.ts",
];
