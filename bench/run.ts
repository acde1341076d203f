/**
 * `npm run bench`: runs every `bench/*.bench.ts` section in name order. Each section
 * exports `default async function (report: (line: string) => void): Promise<void>`
 * and starts its own server, so a new section is one new file and nothing else.
 * `npm run bench -- core` runs only the sections whose file name contains "core".
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

type Section = (report: (line: string) => void) => Promise<void>;

const dir = import.meta.dirname;
const filters = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((name) => name.endsWith(".bench.ts"))
  .filter((name) => filters.length === 0 || filters.some((f) => name.includes(f)))
  .sort();

if (files.length === 0) {
  console.error(`No benchmark sections match ${filters.join(", ") || "bench/*.bench.ts"}.`);
  process.exit(1);
}

let failed = 0;
for (const file of files) {
  const name = file.replace(/\.bench\.ts$/, "");
  console.log(`\n== ${name} ==`);
  const started = performance.now();
  try {
    const module = (await import(pathToFileURL(join(dir, file)).href)) as { default?: Section };
    if (typeof module.default !== "function") throw new Error(`${file} has no default export function`);
    await module.default((line) => console.log(`  ${line}`));
    console.log(`  (section took ${((performance.now() - started) / 1000).toFixed(1)} s)`);
  } catch (error) {
    failed += 1;
    console.error(`  section ${name} failed:`, error);
  }
}
process.exit(failed > 0 ? 1 : 0);
