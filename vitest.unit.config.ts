// Unit tests: pure modules (the task state machine, parsers) in plain Node, in milliseconds.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { include: ["test/unit/**/*.test.ts"], environment: "node" },
  // The core's one face also exports the TaskObject, whose base class only the Workers runtime has.
  resolve: { alias: { "cloudflare:workers": new URL("test/unit/cloudflare-workers.ts", import.meta.url).pathname } },
});
