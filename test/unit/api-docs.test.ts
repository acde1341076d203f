// docs/api.md's tables of exports are the package's faces (its `exports`, built from src/package/index.ts,
// src/adopt/index.ts, src/adopt/mcp-agent-index.ts: scripts/package-entries.ts): every name an entry
// exports has a row saying its stability, and every name a row gives is exported. In this checkout each
// subpath resolves to its source (tsconfig.json "paths"), the template's imports included.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { packageEntries } from "../../scripts/package-entries.ts";

const ROOT = resolve(import.meta.dirname, "../..");
const page = readFileSync(resolve(ROOT, "docs/api.md"), "utf8");

/** An entry's names: it is re-exports only (`export { a, type B } from "…"`, `export type { … }`). */
const exportsOf = (source: string): string[] =>
  [...source.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((match) =>
    (match[1] ?? "")
      .split(",")
      .map((name) => name.trim().replace(/^type /, ""))
      .filter(Boolean),
  );

/** A table's rows: each row's names (backticked, in its first cell) and its stability. */
const rowsOf = (section: string) =>
  section
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => {
      const cells = line.split(" | ");
      const names = [...(cells[0] ?? "").matchAll(/`([A-Za-z][A-Za-z0-9]*)/g)].flatMap((match) =>
        match[1] ? [match[1]] : [],
      );
      return { names, stability: (cells.at(-1) ?? "").replace(/\s*\|$/, "").trim() };
    });

/** "What it exports": the main entry's table first, then a `### \`mcp-task-worker/<subpath>\`` section per subpath. */
const exportsSection = (page.split("\n## What it exports\n")[1] ?? "").split("\n## ")[0] ?? "";
const [mainTable = "", ...subpathSections] = exportsSection.split("\n### ");
const tables = new Map<string, string>([[".", mainTable]]);
for (const section of subpathSections) {
  const subpath = /^`mcp-task-worker\/([a-z-]+)`/.exec(section)?.[1];
  if (subpath) tables.set(`./${subpath}`, section);
}

const entries = packageEntries(ROOT).map((entry) => [entry.subpath, entry.source] as const);

it("tsconfig.json's paths resolve each subpath to the source its build is made from", () => {
  const Tsconfig = z.object({ compilerOptions: z.object({ paths: z.record(z.string(), z.array(z.string())) }) });
  // tsconfig.json allows comments: whole-line ones only, as it writes them.
  const text = readFileSync(resolve(ROOT, "tsconfig.json"), "utf8").replace(/^\s*\/\/.*$/gm, "");
  const { paths } = Tsconfig.parse(JSON.parse(text)).compilerOptions;
  expect(paths).toEqual(
    Object.fromEntries(entries.map(([path, file]) => [`mcp-task-worker${path.slice(1)}`, [`./${file}`]])),
  );
});

describe.each(entries)("docs/api.md's exports of %s", (path, file) => {
  const source = readFileSync(resolve(ROOT, file), "utf8");
  const exported = exportsOf(source);
  const rows = rowsOf(tables.get(path) ?? "");

  it("has a table, and no export the list above cannot see", () => {
    expect(tables.has(path), `docs/api.md has no table for ${path}`).toBe(true);
    expect(source).not.toMatch(/^export (?!(?:type )?\{)/m);
    expect(exported.length).toBeGreaterThan(3);
  });

  it("lists every exported name, with its stability", () => {
    for (const name of exported) {
      const row = rows.find((r) => r.names.includes(name));
      expect(row, `${name} has no row in docs/api.md's table of ${path}`).toBeDefined();
      expect(["stable", "experimental"], name).toContain(row?.stability);
    }
  });

  it("lists no name the entry does not export", () => {
    const listed = rows.flatMap((r) => r.names);
    expect(listed.filter((name) => !exported.includes(name))).toEqual([]);
  });
});
