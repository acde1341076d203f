// docs/adopting.md's "A server like most public ones" listing is code a reader copies: here it is
// that code, in a copy of examples/sdk-v1-handler installed from the tarball (its dependencies are
// the listing's), with the per-secret principal of "A server with no auth" it names and the two
// vars its tool reads. It must pass `wrangler types && tsc --noEmit` and bundle.
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { installedExample } from "./support/adopter";
import { bundleSize } from "./support/bundle";
import { run } from "./support/fresh-clone";

const ROOT = resolve(import.meta.dirname, "../..");
const BIN = join(ROOT, "node_modules/.bin");

/** The doc's ```ts blocks, in order. */
const tsBlocks = (): string[] =>
  [...readFileSync(join(ROOT, "docs/adopting.md"), "utf8").matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? "");

let dir: string;

beforeAll(async () => {
  const example = await installedExample("examples/sdk-v1-handler");
  dir = mkdtempSync(join(tmpdir(), "adopting-listing-"));
  cpSync(example, dir, { recursive: true, filter: (source) => !source.startsWith(join(example, "node_modules")) });
  symlinkSync(join(example, "node_modules"), join(dir, "node_modules"));
  const blocks = tsBlocks();
  const listing = blocks.find((block) => block.includes("const exportLedger = defineTool"));
  const principal = blocks.find((block) => block.includes("const taskKeyPrincipal ="));
  if (listing === undefined || principal === undefined)
    throw new Error("docs/adopting.md lost the listing or the principal");
  // The principal goes after the imports, where a reader would paste it.
  const lines = listing.split("\n");
  const afterImports = lines.findLastIndex((line) => line.startsWith("export {")) + 1;
  writeFileSync(
    join(dir, "src/index.ts"),
    [...lines.slice(0, afterImports), principal, ...lines.slice(afterImports)].join("\n"),
  );
  const config = readFileSync(join(dir, "wrangler.jsonc"), "utf8").replace(
    '"main": "src/index.ts",',
    '"main": "src/index.ts",\n  "vars": { "API_URL": "https://api.example.com", "API_TOKEN": "placeholder" },',
  );
  writeFileSync(join(dir, "wrangler.jsonc"), config);
});

// The copy only: its node_modules is a link to the installed example's, which stays.
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("docs/adopting.md's listing of a server like most public ones", () => {
  it("passes `wrangler types && tsc --noEmit` as the example's own code does", async ({ expect }) => {
    for (const [tool, args] of [
      ["wrangler", ["types"]],
      ["tsc", ["--noEmit"]],
    ] as const) {
      const command = run(dir, join(BIN, tool), [...args]);
      expect(await command.exited, `${tool} ${args.join(" ")} in ${dir}:\n${command.output()}`).toBe(0);
    }
  });

  it("bundles with `wrangler deploy --dry-run`", async ({ expect }) => {
    expect((await bundleSize(join(dir, "wrangler.jsonc"))).gzipKiB).toBeGreaterThan(0);
  });
});
