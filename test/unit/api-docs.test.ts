// docs/api.md's table of exports is the package's face (src/package/index.ts): every name the entry
// exports has a row saying its stability, and every name a row gives is exported.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");
const entry = readFileSync(resolve(ROOT, "src/package/index.ts"), "utf8");
const page = readFileSync(resolve(ROOT, "docs/api.md"), "utf8");

/** The entry's names: it is re-exports only (`export { a, type B } from "…"`, `export type { … }`). */
const exported = [...entry.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((match) =>
  (match[1] ?? "")
    .split(",")
    .map((name) => name.trim().replace(/^type /, ""))
    .filter(Boolean),
);

/** The "What it exports" table: each row's names (backticked, in its first cell) and its stability. */
const rows = (page.split("\n## What it exports\n")[1] ?? "")
  .split("\n## ")[0]
  ?.split("\n")
  .filter((line) => line.startsWith("| `"))
  .map((line) => {
    const cells = line.split(" | ");
    const names = [...(cells[0] ?? "").matchAll(/`([A-Za-z]+)/g)].flatMap((match) => (match[1] ? [match[1]] : []));
    return { names, stability: (cells.at(-1) ?? "").replace(/\s*\|$/, "").trim() };
  });

describe("docs/api.md's exports", () => {
  it("the entry has no export the list above cannot see", () => {
    expect(entry).not.toMatch(/^export (?!(?:type )?\{)/m);
    expect(exported.length).toBeGreaterThan(30);
  });

  it("lists every exported name, with its stability", () => {
    for (const name of exported) {
      const row = rows?.find((r) => r.names.includes(name));
      expect(row, `${name} has no row in docs/api.md's "What it exports"`).toBeDefined();
      expect(["stable", "experimental"], name).toContain(row?.stability);
    }
  });

  it("lists no name the entry does not export", () => {
    const listed = rows?.flatMap((r) => r.names) ?? [];
    expect(listed.filter((name) => !exported.includes(name))).toEqual([]);
  });
});
