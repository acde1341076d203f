// Unit tests: pure modules (the task state machine, parsers) in plain Node, in milliseconds.
import { readFileSync } from "node:fs";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";
import { packageEntries } from "./scripts/package-entries.ts";

const ROOT = new URL(".", import.meta.url).pathname;

/**
 * The pages the Worker imports as text modules (src/pages; wrangler's rule for `.html`), as text here
 * too: a unit test that loads the package's face (src/tools does) reaches them.
 */
const htmlAsText: Plugin = {
  name: "html-as-text",
  enforce: "pre",
  load(id) {
    return id.endsWith(".html") ? `export default ${JSON.stringify(readFileSync(id, "utf8"))};` : undefined;
  },
};

export default defineConfig({
  plugins: [htmlAsText],
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
        // A file that mocks a module (`vi.mock`) would need a project of its own, so no other file sees the stand-in.
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], isolate: false },
      },
    ],
  },
  // The core's one face (and the package's) also exports the TaskObject, whose base class only the
  // Workers runtime has, and the package's TaskWorkflow, whose base is the runtime's WorkflowEntrypoint.
  resolve: {
    alias: [
      // "mcp-task-worker" and its subpaths are this checkout's source, for every importer (test/fixtures
      // too, which tsconfig.json "paths" do not cover), never the published build, which a clone has not.
      ...packageEntries(ROOT).map((entry) => ({
        find: new RegExp(`^mcp-task-worker${entry.subpath.slice(1).replaceAll("/", "\\/")}$`),
        replacement: `${ROOT}${entry.source}`,
      })),
      { find: "cloudflare:workers", replacement: `${ROOT}test/unit/cloudflare-workers.ts` },
      { find: "cloudflare:workflows", replacement: `${ROOT}test/unit/cloudflare-workflows.ts` },
    ],
  },
});
