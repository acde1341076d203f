// Unit tests: pure modules (the task state machine, parsers) in plain Node, in milliseconds.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/unit/**/*.test.ts"],
    environment: "node",
    // A hang guard only. Two tests are CPU work with no event to wait on (dependency-cruiser over src/,
    // a 172,804-poll simulation): 27 s and 6.5 s in a run at load average 30, past Vitest's default 5 s.
    testTimeout: 60_000,
  },
  // The core's one face also exports the TaskObject, whose base class only the Workers runtime has.
  resolve: { alias: { "cloudflare:workers": new URL("test/unit/cloudflare-workers.ts", import.meta.url).pathname } },
});
