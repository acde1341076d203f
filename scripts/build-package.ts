/**
 * The published build (npm `prepack`; docs/api.md, "Built output"): for each subpath of
 * package.json "exports" (the one list, scripts/package-entries.ts) an ESM file bundled by Rolldown
 * and its declarations emitted by the project's TypeScript (`tsc -p tsconfig.build.json`), whose
 * extensionless relative imports tsc-alias completes so Node's ESM resolution (attw) finds them.
 * Every package and the runtime's modules stay imports: the consumer's bundler dedupes zod, the
 * SDKs and agents with its own.
 *
 *   node scripts/build-package.ts
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { build, type Plugin } from "rolldown";
import { BUILT, packageEntries } from "./package-entries.ts";

const ROOT = resolve(import.meta.dirname, "..");
const BIN = join(ROOT, "node_modules/.bin");
/** Where tsc writes (tsconfig.build.json "outDir"); its declarations move under BUILT. */
const EMITTED = "dist/emitted";

/**
 * The pages (dist/pages/*.html, scripts/build-ui.mjs) stay files beside the build, which wrangler
 * imports as text: each import is kept, rewritten relative to the chunk that holds it.
 */
const PAGE = "mcp-task-worker-page:";
const pagesBesideTheBuild: Plugin = {
  name: "pages-beside-the-build",
  resolveId(source) {
    return source.endsWith(".html") ? { id: `${PAGE}${basename(source)}`, external: true } : undefined;
  },
  renderChunk(code, chunk) {
    const from = dirname(join(BUILT, chunk.fileName));
    return code.replaceAll(new RegExp(`"${PAGE}([\\w.-]+)"`, "g"), (_, page: string) => {
      const path = relative(from, join("dist/pages", page));
      return JSON.stringify(path.startsWith(".") ? path : `./${path}`);
    });
  },
};

/** A bare specifier (a package, `cloudflare:workers`, `node:*`) is the consumer's to resolve. */
const isPackage = (id: string): boolean => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0");

const entries = packageEntries(ROOT);
// tsconfig.build.json is JSONC: its comment lines go before it is parsed.
const buildConfig: { include: string[] } = JSON.parse(
  readFileSync(join(ROOT, "tsconfig.build.json"), "utf8").replace(/^\s*\/\/.*$/gm, ""),
);
if (JSON.stringify(buildConfig.include.toSorted()) !== JSON.stringify(entries.map((e) => e.source).toSorted()))
  throw new Error(
    `tsconfig.build.json "include" must name the entries of package.json "exports": ${entries.map((e) => e.source).join(", ")}`,
  );

const started = performance.now();
for (const dir of [BUILT, EMITTED]) rmSync(join(ROOT, dir), { recursive: true, force: true });
const warnings: string[] = [];
await build({
  cwd: ROOT,
  input: Object.fromEntries(entries.map((entry) => [entry.name, entry.source])),
  platform: "neutral",
  external: isPackage,
  plugins: [pagesBesideTheBuild],
  onLog: (level, log) => {
    if (level === "warn") warnings.push(log.message);
  },
  output: {
    dir: join(ROOT, BUILT),
    format: "esm",
    entryFileNames: "[name].js",
    chunkFileNames: "chunks/[name]-[hash].js",
  },
});
if (warnings.length > 0) throw new Error(`the build warned:\n${warnings.join("\n")}`);
// tsc-alias completes a relative import only where it finds the file a runtime would load, so tsc
// emits each source file's JavaScript too, in a folder of its own that only lends its names.
execFileSync(join(BIN, "tsc"), ["-p", "tsconfig.build.json"], { cwd: ROOT, stdio: "inherit" });
execFileSync(join(BIN, "tsc-alias"), ["-p", "tsconfig.build.json", "--resolve-full-paths"], {
  cwd: ROOT,
  stdio: "inherit",
});
for (const file of readdirSync(join(ROOT, EMITTED), { recursive: true, encoding: "utf8" })) {
  // The template's own files (its entry, tools and event types: worker-configuration.d.ts names them) are not the package's.
  if (!file.endsWith(".d.ts") || file === "index.d.ts" || /^(tools|event-types)\//.test(file)) continue;
  mkdirSync(dirname(join(ROOT, BUILT, file)), { recursive: true });
  renameSync(join(ROOT, EMITTED, file), join(ROOT, BUILT, file));
}
rmSync(join(ROOT, EMITTED), { recursive: true, force: true });
console.log(`built ${BUILT} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
