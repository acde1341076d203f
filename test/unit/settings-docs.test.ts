// The docs and wrangler.toml say what the code does: docs/settings.md's table lists every setting of
// src/settings/vars.ts and no other, each with the code's default and what it accepts; any other page's
// table row naming a setting gives the same default; wrangler.toml's [vars] are values the code takes.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { readSettings } from "../../src/config";
import { settingDocs } from "../../src/settings/kinds";
import { SETTING_NAMES, SETTING_SCHEMAS } from "../../src/settings/vars";

interface Row {
  page: string;
  name: string;
  secret: boolean;
  cells: string[];
}

/** The table rows of a page whose first cell names a setting: `| \`NAME\` (secret) | … |`. */
function settingRows(page: string): Row[] {
  return readFileSync(page, "utf8")
    .split("\n")
    .flatMap((line) => {
      const named = /^\| `([A-Z][A-Z0-9_]*)`( \(secret\))? \|(.*)\|$/.exec(line);
      if (!named?.[1] || !SETTING_NAMES.includes(named[1])) return [];
      const cells = (named[3] ?? "").split(" | ").map((cell) => cell.trim());
      return [{ page, name: named[1], secret: named[2] !== undefined, cells }];
    });
}

/** A default cell's value: its first backticked value (`""` is the empty text), or its first word. */
const defaultIn = (cell: string): string => {
  const quoted = /`([^`]*)`/.exec(cell)?.[1];
  if (quoted === undefined) return cell.split(" ")[0] ?? "";
  return quoted === '""' ? "" : quoted;
};
const docOf = (name: string) => {
  const schema = SETTING_SCHEMAS.get(name);
  return schema && settingDocs.get(schema);
};

describe("docs/settings.md", () => {
  const rows = settingRows("docs/settings.md");

  it("lists every setting the code reads, once, and no other", () => {
    expect(rows.map((row) => row.name).sort()).toEqual([...SETTING_NAMES].sort());
  });

  it.each(rows)("$name: the code's default, what it accepts, and whether it is a secret", (row) => {
    const doc = docOf(row.name);
    const [fallback = "", accepts = ""] = row.cells;
    expect({ fallback: defaultIn(fallback), accepts, secret: row.secret }).toEqual({
      fallback: doc?.fallback,
      accepts: doc?.accepts,
      secret: doc?.secret === true,
    });
  });
});

describe("every other page", () => {
  const pages = ["README.md", ...readdirSync("docs").map((file) => `docs/${file}`)].filter(
    (page) => page.endsWith(".md") && page !== "docs/settings.md",
  );
  const rows = pages.flatMap(settingRows).filter((row) => /^(`|unset)/.test(row.cells[0] ?? ""));

  it("finds the settings tables it checks (docs/security.md's among them)", () => {
    expect(rows.map((row) => row.page)).toContain("docs/security.md");
  });

  it.each(rows)("$page: $name has the code's default", (row) => {
    expect(defaultIn(row.cells[0] ?? "")).toBe(docOf(row.name)?.fallback);
  });
});

describe("wrangler.toml [vars]", () => {
  const section = /^\[vars\]\n([\s\S]*?)(?=^\[)/m.exec(readFileSync("wrangler.toml", "utf8"))?.[1] ?? "";
  const vars = Object.fromEntries(
    [...section.matchAll(/^([A-Z][A-Z0-9_]*) = "(.*)"$/gm)].map((m) => [m[1] ?? "", m[2] ?? ""]),
  );

  it("sets only settings the code reads, each to a value it takes", () => {
    expect(Object.keys(vars).length).toBeGreaterThan(10);
    expect(Object.keys(vars).filter((name) => !SETTING_NAMES.includes(name))).toEqual([]);
    expect(readSettings(vars).problems).toEqual([]);
  });

  it("writes each default as the code has it (blank: the default)", () => {
    for (const [name, value] of Object.entries(vars)) if (value !== "") expect(value, name).toBe(docOf(name)?.fallback);
  });
});
