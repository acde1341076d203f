/**
 * Orders the e2e files longest first from a committed table of their durations (durations.json,
 * written by `node scripts/e2e-durations.mjs` from a run's .test-results/e2e.json). Vitest's own
 * order uses its cache of the last run, which a fresh clone (and so CI) lacks: it then orders by
 * file size, and a 110 s file that starts at minute 4 ends the suite late (docs/testing.md).
 */
import { readFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";
import { z } from "zod";

const ROOT = resolve(import.meta.dirname, "../../..");
const TABLE = resolve(import.meta.dirname, "../durations.json");

/** Seconds each file took, keyed by its path from the repo root. */
export const Durations = z.record(z.string(), z.number());

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    // Vitest's order first (groups, projects, then its cache or file size); a stable sort then puts
    // the longest known files first within each group. A file not in the table keeps Vitest's order,
    // ahead of the known ones, as Vitest runs an unknown file first.
    const table = Durations.parse(JSON.parse(readFileSync(TABLE, "utf8")));
    const seconds = (spec: TestSpecification) => table[relative(ROOT, spec.moduleId)] ?? Number.POSITIVE_INFINITY;
    const group = (spec: TestSpecification) => spec.project.config.sequence.groupOrder;
    return (await super.sort(files)).sort((a, b) => group(a) - group(b) || seconds(b) - seconds(a));
  }
}
