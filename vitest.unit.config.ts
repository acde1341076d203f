// Unit tests: pure modules (the task state machine, parsers) in plain Node, in milliseconds.
import { defineConfig } from "vitest/config";

/** Files that mock a module (`vi.mock`): they get modules of their own, so no other file sees the stand-in. */
const MOCKING = ["test/unit/era-table.test.ts"];

export default defineConfig({
  test: {
    environment: "node",
    // A hang guard only: no unit test waits on time or events. Two are CPU work (dependency-cruiser
    // over src/, a 172,804-poll simulation): the layer check, 1.4 s on an idle machine, took 27 s at
    // load average 30 and 61 s beside a second `npm test` at load 22, past an earlier 60 s guard.
    testTimeout: 300_000,
    projects: [
      {
        extends: true,
        // The files share one module graph (`isolate: false`): loading it again for each of ~40 files was
        // two thirds of the suite's CPU (24 → 8 s; docs/testing.md). Fake timers and stubbed globals are
        // undone by each file's own afterEach.
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], exclude: MOCKING, isolate: false },
      },
      { extends: true, test: { name: "unit-mocking", include: MOCKING } },
    ],
  },
  // The core's one face also exports the TaskObject, whose base class only the Workers runtime has.
  resolve: { alias: { "cloudflare:workers": new URL("test/unit/cloudflare-workers.ts", import.meta.url).pathname } },
});
