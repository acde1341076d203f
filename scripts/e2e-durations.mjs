#!/usr/bin/env node
// Rewrites test/e2e/durations.json, the committed table the e2e suite orders its files by (longest
// first: test/e2e/support/sequencer.ts), from the last run's .test-results/e2e.json. Run it after
// `npm test` or `npm run test:e2e` on an otherwise idle machine when files were added or got slower.
import { readFileSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const report = JSON.parse(readFileSync(resolve(root, ".test-results/e2e.json"), "utf8"));
const table = Object.fromEntries(
  report.testResults
    .map((file) => [relative(root, file.name), Math.round((file.endTime - file.startTime) / 100) / 10])
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(resolve(root, "test/e2e/durations.json"), `${JSON.stringify(table, null, 2)}\n`);
console.log(`test/e2e/durations.json: ${Object.keys(table).length} files`);
