#!/usr/bin/env node
// Runs the gate: the type check and Biome's format and lint check (each counted as one check), the
// three test suites (unit, Workers pool, end-to-end on wrangler dev), then prints each one's wall
// time and one closing line, "N passed, N failed", across all of them (a file that failed to run
// counts as one failure: scripts/test-report.ts).
// All five run at once, but the type check and the unit suite wait until the pool suite's runner is
// up: that one start (workerd loading src/ and its dependencies) must finish within Vitest's fixed
// 90 s, and under load it did not while the checks competed for the CPU (docs/testing.md). The e2e
// suite, the longest, starts at once with its longest files. The e2e output streams; the others
// print when they end. `node scripts/test.mjs typecheck biome` runs just the named ones, at once.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { relative, resolve } from "node:path";
import { countReport, VitestReport } from "./test-report.ts";

/** The checks that are not Vitest suites: each passes or fails as one. */
const CHECKS = {
  typecheck: ["npm", ["run", "--silent", "typecheck"]],
  // `biome ci` never writes: it fails on any file `npm run format` would change and on lint errors.
  biome: ["biome", ["ci", "--colors=off", "."]],
};

const asked = process.argv.slice(2);
/** What runs, and what each waits for first: the pool's runner start. */
const plan =
  asked.length > 0
    ? asked.map((name) => ({ name }))
    : [
        { name: "pool" },
        { name: "biome" },
        { name: "typecheck", after: "pool" },
        { name: "unit", after: "pool" },
        { name: "e2e" },
      ];
/** The pool's runner is up once the first file's result line is out. */
const READY = { pool: /test\/pool\/\S+\.test\.ts/ };
const outDir = ".test-results";
const COMPILE_CACHE = resolve("node_modules/.cache/node-compile");
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

/**
 * Runs one suite or check; `live` streams its output, otherwise it is printed in one piece once it ends.
 * `ready` settles once its READY line is out (or it ended).
 */
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
  let isReady;
  const ready = new Promise((resolve) => (isReady = resolve));
  const hear = (chunk) => {
    output += chunk;
    if (READY[name]?.test(output)) isReady();
  };
  child.stdout?.on("data", hear);
  child.stderr?.on("data", hear);
  child.on("close", () => isReady());
  const done = new Promise((resolve) =>
    child.on("close", (status) => {
      const seconds = Math.round((Date.now() - started) / 1000);
      // A check that passed prints one line: its output then is warnings `npm run lint` also shows.
      if (!live && name in CHECKS && status === 0) process.stdout.write(`\n── ${name}: passed ──\n`);
      else if (!live) process.stdout.write(`\n── ${name} (ran beside the others) ──\n${output}`);
      resolve({ name, status, outputFile, seconds });
    }),
  );
  return { ready, done };
}

let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;
const times = [];
const runs = new Map();
const last = plan[plan.length - 1]?.name;
for (const { name, after } of plan) {
  const waitFor = after === undefined ? undefined : runs.get(after)?.ready;
  // The last one streams (the e2e suite, the longest); the others print when they end.
  const started = (waitFor ?? Promise.resolve()).then(() => run(name, name === last));
  runs.set(name, {
    ready: started.then((r) => r.ready),
    done: started.then((r) => r.done),
  });
}
const results = await Promise.all([...runs.values()].map((r) => r.done));
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
  const count = countReport(VitestReport.parse(JSON.parse(readFileSync(outputFile, "utf8"))));
  passed += count.passed;
  failed += count.failed;
  skipped += count.skipped;
  for (const file of count.brokenFiles) {
    console.error(`suite ${name}: ${relative(process.cwd(), file.name)} failed to run: ${file.reason}`);
  }
  if (count.total === 0) {
    console.error(`suite ${name}: ran no test`);
    exitCode = 1;
  }
}
console.log(`wall time: ${times.join(", ")}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(failed > 0 ? 1 : exitCode);
