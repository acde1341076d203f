#!/usr/bin/env node
// Runs the gate: the type check and Biome's format and lint check (each counted as one check), the
// three test suites (unit, Workers pool, end-to-end on wrangler dev), then prints each one's wall
// time and one closing line, "N passed, N failed", across all of them.
// All five run at once: the e2e suite is the longest and starts its longest files first, and the
// others fill the CPU it leaves (docs/testing.md, "Where the time goes"). The e2e output streams;
// the others print when they end. `node scripts/test.mjs typecheck biome` runs just the named ones.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { resolve } from "node:path";

/** The checks that are not Vitest suites: each passes or fails as one. */
const CHECKS = {
  typecheck: ["npm", ["run", "--silent", "typecheck"]],
  // `biome ci` never writes: it fails on any file `npm run format` would change and on lint errors.
  biome: ["biome", ["ci", "--colors=off", "."]],
};

const asked = process.argv.slice(2);
const stages = asked.length > 0 ? [asked] : [["typecheck", "biome", "unit", "pool", "e2e"]];
const outDir = ".test-results";
const COMPILE_CACHE = resolve("node_modules/.cache/node-compile");
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

/** Runs one suite or check; `live` streams its output, otherwise it is printed in one piece once it ends. */
function run(name, live) {
  const started = Date.now();
  const outputFile = `${outDir}/${name}.json`;
  const [command, args] = CHECKS[name] ?? [
    "vitest",
    [
      "run",
      "--config",
      `vitest.${name}.config.ts`,
      "--reporter=default",
      "--reporter=json",
      `--outputFile.json=${outputFile}`,
    ],
  ];
  const child = spawn(command, args, {
    stdio: live ? "inherit" : ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      // Node keeps the compiled code of what it loads: each of the ~60 wrangler starts, 10 tsc runs and
      // every test worker loads the same large files, and a start costs ~0.5 s less CPU (docs/testing.md).
      NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? COMPILE_CACHE,
    },
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  return new Promise((resolve) =>
    child.on("close", (status) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      // A check that passed prints one line: its output then is warnings `npm run lint` also shows.
      if (!live && name in CHECKS && status === 0) process.stdout.write(`\n── ${name}: passed ──\n`);
      else if (!live) process.stdout.write(`\n── ${name} (ran beside the others) ──\n${output}`);
      resolve({ name, status, outputFile, seconds });
    }),
  );
}

let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;
const times = [];
for (const stage of stages) {
  // The last of a stage streams (the e2e suite, the longest); the others print when they end.
  const results = await Promise.all(stage.map((name, i) => run(name, i === stage.length - 1)));
  for (const { name, status, outputFile, seconds } of results) {
    times.push(`${name} ${seconds} s`);
    if (status !== 0) exitCode = 1;
    if (name in CHECKS) {
      if (status === 0) passed += 1;
      else {
        console.error(`check ${name} failed (exit ${status}): its output is above`);
        failed += 1;
      }
      continue;
    }
    if (!existsSync(outputFile)) {
      console.error(`suite ${name}: no results written (exit ${status})`);
      failed += 1;
      continue;
    }
    const report = JSON.parse(readFileSync(outputFile, "utf8"));
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + (report.numTodoTests ?? 0);
    if (report.numTotalTests === 0) {
      console.error(`suite ${name}: ran no test`);
      exitCode = 1;
    }
  }
}
console.log(`wall time: ${times.join(", ")}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : exitCode);
