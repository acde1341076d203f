/**
 * What a Worker script costs to start, as a ratio: the script `wrangler deploy --dry-run` would
 * upload (this repo's, or a variant's from variants.ts), with `cloudflare:workers` stubbed, imported
 * by a fresh Node process; the CPU time (user + system) of the import, over N starts, interleaved.
 * Node's V8 is not workerd's and production keeps code caches: compare scripts, not absolutes.
 *
 *   npm exec -- node bench/ab/startup.ts main no-minify          (STARTS=41)
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { writeVariant } from "./variants.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const STARTS = Number(process.env["STARTS"] ?? 41);
const names = process.argv.slice(2);
if (names.length === 0) throw new Error("name one or more variants (main is the repo as it is)");

const STUB =
  "export class DurableObject { constructor(ctx, env) { this.ctx = ctx; this.env = env; } }\nexport class WorkerEntrypoint extends DurableObject {}\nexport class RpcTarget {}\nexport const env = {};\n";
const TIMER =
  "const before = process.cpuUsage(); await import(process.argv[1]); const used = process.cpuUsage(before); console.log((used.user + used.system) / 1000);";

function script(name: string): string {
  const dir = mkdtempSync(join(tmpdir(), `startup-${name}-`));
  const config = name === "main" ? [] : ["--config", writeVariant(name)];
  execFileSync(
    process.execPath,
    [
      join(ROOT, "node_modules/wrangler/bin/wrangler.js"),
      "deploy",
      "--dry-run",
      "--outdir",
      join(dir, "out"),
      ...config,
    ],
    { cwd: ROOT, stdio: "ignore", env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true" } },
  );
  writeFileSync(join(dir, "cloudflare-workers.mjs"), STUB);
  const file = join(dir, "worker.mjs");
  writeFileSync(
    file,
    readFileSync(join(dir, "out/index.js"), "utf8").replace(
      /from\s*"cloudflare:workers"/g,
      `from ${JSON.stringify(join(dir, "cloudflare-workers.mjs"))}`,
    ),
  );
  return file;
}

const files = names.map(script);
const samples = names.map((): number[] => []);
for (let i = 0; i < STARTS; i++) {
  files.forEach((file, k) => {
    const run = spawnSync(process.execPath, ["--input-type=module", "-e", TIMER, file], { encoding: "utf8" });
    const ms = Number(run.stdout.trim().split("\n").at(-1));
    if (Number.isFinite(ms)) samples[k]?.push(ms);
  });
}
const quantile = (values: number[], q: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))] ?? Number.NaN;
names.forEach((name, k) => {
  const values = samples[k] ?? [];
  console.log(
    `${name.padEnd(20)} CPU to import: median ${quantile(values, 0.5).toFixed(1)} ms, quartiles ${quantile(values, 0.25).toFixed(1)}-${quantile(values, 0.75).toFixed(1)} ms (${values.length} starts)`,
  );
});
