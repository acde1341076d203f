/**
 * Keeps what the model was sent in each case under .test-results/claude-code/, so a run shows the
 * exact words (also when an expectation fails) and wording changes can be compared across runs.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const OUT = resolve(import.meta.dirname, "../../../.test-results/claude-code");

export function record(name: string, what: Record<string, unknown>): void {
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, `${name}.json`), JSON.stringify(what, null, 2) + "\n");
}
