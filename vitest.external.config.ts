// `npm run test:external`: the e2e files that drive someone else's large programs (headless
// Chromium, the MCP conformance CLI, the Inspector CLI and mcp-remote, npm and wrangler in a fresh
// clone) against a real `wrangler dev`, with the e2e suite's servers and support.
// test/e2e/support/suites.ts says which files and why.
import { defineConfig } from "vitest/config";
import { E2E_OPTIONS, GLOBAL_SETUP } from "./vitest.e2e.config.ts";
import { EXTERNAL } from "./test/e2e/support/suites.ts";

export default defineConfig({
  test: {
    ...E2E_OPTIONS,
    name: "external",
    include: EXTERNAL,
    // The examples, installed from the tarball before any file starts (support/install-examples.ts).
    globalSetup: [...GLOBAL_SETUP, "test/e2e/support/install-examples.ts"],
  },
});
