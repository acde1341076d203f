#!/usr/bin/env node
// Rewrites test/e2e/durations.json, the committed table the e2e files are ordered by (longest first:
// test/e2e/support/sequencer.ts), from Vitest's own record of the last run: each file's whole time,
// its server's start in beforeAll included (the JSON report's file times leave hooks out, so files
// that mostly start a server of their own looked short and ran last). Run it after `npm test` and
// `npm run test:external` on an otherwise idle machine when files were added or got slower.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
// Vitest keeps it as node_modules/.vite/vitest/<hash>/results.json; the newest is the last run's.
const cacheDir = join(root, "node_modules/.vite/vitest");
const [cache] = readdirSync(cacheDir)
  .map((hash) => join(cacheDir, hash, "results.json"))
  .filter((file) => statSync(file, { throwIfNoEntry: false }))
  .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
if (!cache) throw new Error(`no Vitest results under ${cacheDir}: run the e2e suite first`);
const { projects } = JSON.parse(readFileSync(cache, "utf8"));
const table = Object.fromEntries(
  ["e2e", "e2e-timing", "external"]
    .flatMap((project) => Object.entries(projects[project]?.files ?? {}))
    .map(([file, { duration }]) => [file, Math.round(duration / 100) / 10])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(resolve(root, "test/e2e/durations.json"), `${JSON.stringify(table, null, 2)}\n`);
console.log(`test/e2e/durations.json: ${Object.keys(table).length} files, from ${cache}`);
