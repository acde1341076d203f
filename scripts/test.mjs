#!/usr/bin/env node
// Runs the three test suites (unit, Workers pool, end-to-end on wrangler dev) in order,
// then prints one closing line, "N passed, N failed", across all of them.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";

const suites = process.argv.slice(2).length > 0 ? process.argv.slice(2) : ["unit", "pool", "e2e"];
const outDir = ".test-results";
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;
for (const suite of suites) {
  const outputFile = `${outDir}/${suite}.json`;
  const run = spawnSync("vitest", ["run", "--config", `vitest.${suite}.config.ts`, "--reporter=default", "--reporter=json", `--outputFile.json=${outputFile}`], {
    stdio: "inherit",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  if (run.status !== 0) exitCode = 1;
  if (!existsSync(outputFile)) {
    console.error(`suite ${suite}: no results written (exit ${run.status})`);
    failed += 1;
    continue;
  }
  const report = JSON.parse(readFileSync(outputFile, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += report.numPendingTests + (report.numTodoTests ?? 0);
  if (report.numTotalTests === 0) {
    console.error(`suite ${suite}: ran no test`);
    exitCode = 1;
  }
}
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : exitCode);
