/**
 * A user who clones the template and keeps only `src/index.ts`, `src/tools/`, `src/event-types/`,
 * `wrangler.toml` and `package.json`, depending on the published package instead of the engine's
 * source, has the same server (issue 42, point 3). The folder gets exactly those five paths of this checkout and the
 * edits docs/api.md ("Taking the engine from npm") lists, nothing else (a tsconfig.json for the type
 * check); it installs the packed package, type-checks, bundles, and `wrangler dev` there lists the
 * tools the template's own server lists, in both eras, and runs a task of each era to its end.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { it } from "vitest";
import * as z from "zod";
import { sharedServer } from "./support/dev-server";
import { connectClient } from "./support/mcp";
import { MODERN, connectV2 } from "./support/modern";
import { describeConsumer, editJson } from "./support/package-consumer";

const ROOT = resolve(import.meta.dirname, "../..");
/** What the template's own package.json keeps: the five paths need nothing else (docs/api.md). */
const KEPT_SCRIPTS = ["dev", "deploy", "types"];
const KEPT_DEV_DEPENDENCIES = ["node", "wrangler", "typescript", "zod", "@types/node"];

const Names = z.record(z.string(), z.string());

/** The entries of a package.json map (scripts, devDependencies) whose names are in `kept`. */
function only(map: unknown, kept: string[]): Record<string, string> {
  return Object.fromEntries(Object.entries(Names.parse(map)).filter(([name]) => kept.includes(name)));
}

/** Replaces `from` with `to` in `text`, failing when `from` is not there (the template moved on). */
function replaced(text: string, from: RegExp | string, to: string): string {
  const next = text.replace(from, to);
  if (next === text) throw new Error(`the template's wrangler.toml no longer has ${String(from)}: update docs/api.md`);
  return next;
}

/** docs/api.md's steps, in the order it lists them, with the tarball for "^0.2.0". */
function takeTheEngineFromNpm(dir: string, tarball: string): void {
  mkdirSync(join(dir, "src"));
  for (const path of ["src/index.ts", "src/tools", "src/event-types", "wrangler.toml", "package.json"]) {
    cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  }
  editJson(join(dir, "package.json"), (manifest) => {
    manifest.name = "my-mcp-server";
    for (const key of ["exports", "files", "peerDependencies", "peerDependenciesMeta"]) delete manifest[key];
    manifest.scripts = only(manifest.scripts, KEPT_SCRIPTS);
    manifest.dependencies = { "mcp-task-worker": `file:${tarball}` };
    manifest.devDependencies = only(manifest.devDependencies, KEPT_DEV_DEPENDENCIES);
  });
  const toml = join(dir, "wrangler.toml");
  let text = readFileSync(toml, "utf8");
  text = replaced(text, /^\[build\]\n(?:[a-z_]+ = .*\n)+/m, "");
  text = replaced(text, /"\.\/src\/shims\//g, '"./node_modules/mcp-task-worker/src/shims/');
  writeFileSync(toml, text);
  cpSync(join(ROOT, "test/fixtures/consumer/tsconfig.json"), join(dir, "tsconfig.json"));
  editJson(join(dir, "tsconfig.json"), (tsconfig) => {
    const options = z.record(z.string(), z.unknown()).parse(tsconfig.compilerOptions);
    tsconfig.compilerOptions = { ...options, types: ["node", "./worker-configuration.d.ts"] };
  });
}

/** Every tool as `tools/list` describes it in each era: names, titles, descriptions, schemas. */
async function toolsOf(url: string): Promise<{ classic: unknown; modern: unknown }> {
  const v1 = await connectClient(url);
  const v2 = await connectV2(url, { pin: MODERN });
  try {
    return { classic: (await v1.listTools()).tools, modern: (await v2.listTools()).tools };
  } finally {
    await v1.close();
    await v2.close();
  }
}

const template = sharedServer();

describeConsumer({
  title:
    "the template cut down to src/index.ts, src/tools/, src/event-types/, wrangler.toml and package.json, on the packed package",
  layOut: takeTheEngineFromNpm,
  toolchain: "own",
  nodeTypes: true,
  call: { name: "countdown", arguments: { seconds: 2 }, text: "Countdown of 2 s finished." },
  served(url) {
    it("lists the same tools as the template's own server, in both eras", async ({ expect }) => {
      const ours = await toolsOf(template.url);
      const theirs = await toolsOf(url());
      expect(ours.classic).toEqual(expect.arrayContaining([expect.objectContaining({ name: "countdown" })]));
      expect(theirs).toEqual(ours);
    });
  },
});
