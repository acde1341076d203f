/**
 * The package as a stranger installs it: `npm pack` of this checkout (test/support/package-tarball.ts)
 * into a fresh folder holding only a minimal Worker of its own (test/fixtures/consumer: package.json,
 * wrangler.toml with the bindings docs/api.md lists, src/index.ts with one tool, no @types/node). It
 * installs, type-checks (also with the strictest common flags, TypeScript 5 and 7, `wrangler types`
 * or @cloudflare/workers-types), bundles with `wrangler deploy --dry-run`, and `wrangler dev` serves a
 * task-augmented call to its end in both eras (issue 42: the template's engine, published). The
 * tarball passes the checks its ecosystem runs on a package: publint, and attw for ESM consumers.
 */
import { cpSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, it } from "vitest";
import { packageTarball } from "../support/package-tarball";
import { run } from "./support/fresh-clone";
import { describeConsumer } from "./support/package-consumer";
import * as z from "zod";

const ROOT = resolve(import.meta.dirname, "../..");
const FIXTURE = resolve(import.meta.dirname, "../fixtures/consumer");
/** attw's `--format json` answer: the problems it found by kind, each for an entry and a resolution mode. */
const AttwReport = z.object({
  problems: z.record(
    z.string(),
    z.array(z.object({ kind: z.string(), entrypoint: z.string().optional(), resolutionKind: z.string().optional() })),
  ),
});

describeConsumer({
  title: "a Worker built on the packed package",
  layOut(dir, tarball) {
    cpSync(FIXTURE, dir, { recursive: true });
    const manifest = join(dir, "package.json");
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace("PACKAGE_TARBALL", tarball));
  },
  toolchain: "checkout",
  nodeTypes: false,
  strictest: true,
  call: { name: "countdown", arguments: { seconds: 2 }, text: "Countdown of 2 s finished." },
});

// publint and @arethetypeswrong/cli are this checkout's devDependencies (on PATH in npm scripts and npx).
describe("the tarball, as package linters read it", () => {
  it("publint finds nothing, suggestions included", async ({ expect }) => {
    const lint = run(ROOT, "publint", ["run", await packageTarball(), "--level", "suggestion", "--strict"]);
    expect(await lint.exited, lint.output()).toBe(0);
    expect(lint.output()).toContain("All good!");
  });

  it("attw (--profile esm-only) resolves every entry to its JavaScript and its types, each import inside them too", async ({
    expect,
  }) => {
    const attw = run(ROOT, "attw", [await packageTarball(), "--profile", "esm-only", "--format", "json"]);
    const code = await attw.exited;
    expect(code, attw.output()).toBe(0);
    const problems = Object.values(AttwReport.parse(JSON.parse(attw.output())).problems).flat();
    // All that is left is what esm-only ignores: CommonJS resolution of an ESM-only package.
    expect(problems.filter((problem) => !["node10", "node16-cjs"].includes(problem.resolutionKind ?? ""))).toEqual([]);
  });
});
