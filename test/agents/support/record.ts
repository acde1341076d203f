/**
 * Keeps what each agent did and what its model was sent under .test-results/agents/<agent>/, so a run
 * shows the exact words (also when an expectation fails) and wording changes can be compared.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const OUT = resolve(import.meta.dirname, "../../../.test-results/agents");

export function record(agent: string, name: string, what: Record<string, unknown>): void {
  mkdirSync(join(OUT, agent), { recursive: true });
  writeFileSync(join(OUT, agent, `${name}.json`), JSON.stringify(what, null, 2) + "\n");
}
