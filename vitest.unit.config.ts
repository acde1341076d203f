// Unit tests: pure modules (the task state machine, parsers) in plain Node, in milliseconds.
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: { include: ["test/unit/**/*.test.ts"], environment: "node" },
});
