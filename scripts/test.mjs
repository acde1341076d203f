#!/usr/bin/env node
// Runs the three test suites (unit, Workers pool, end-to-end on wrangler dev), then prints each
// suite's wall time and one closing line, "N passed, N failed", across all of them.
// Unit runs first, alone; pool and e2e then run side by side, since the e2e suite mostly waits on
// its dev servers (docs/testing.md). The e2e output streams; a suite beside it prints when it ends.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";

const asked = process.argv.slice(2);
const stages = asked.length > 0 ? [asked] : [["unit"], ["pool", "e2e"]];
const outDir = ".test-results";
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

/** Runs one suite; `live` streams its output, otherwise it is printed in one piece once the suite ends. */
function run(suite, live) {
  const started = Date.now();
  const outputFile = `${outDir}/${suite}.json`;
  const child = spawn("vitest", ["run", "--config", `vitest.${suite}.config.ts`, "--reporter=default", "--reporter=json", `--outputFile.json=${outputFile}`], {
    stdio: live ? "inherit" : ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  return new Promise((resolve) =>
    child.on("close", (status) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      if (!live) process.stdout.write(`\n── ${suite} (ran beside the others) ──\n${output}`);
      resolve({ suite, status, outputFile, seconds });
    }),
  );
}

let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;
const times = [];
for (const stage of stages) {
  // The last suite of a stage streams (the e2e suite, the longest); the others print when they end.
  const results = await Promise.all(stage.map((suite, i) => run(suite, i === stage.length - 1)));
  for (const { suite, status, outputFile, seconds } of results) {
    times.push(`${suite} ${seconds} s`);
    if (status !== 0) exitCode = 1;
    if (!existsSync(outputFile)) {
      console.error(`suite ${suite}: no results written (exit ${status})`);
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
}
console.log(`wall time: ${times.join(", ")}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : exitCode);
