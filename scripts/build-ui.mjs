#!/usr/bin/env node
// Builds each browser page in ui/<name>/ (index.html + main.ts; a folder without index.html, like
// ui/shared, holds modules the pages share) into one self-contained HTML
// document, its script bundled in, and writes it to dist/pages/<name>.html, which the Worker imports
// as a text module (src/pages; wrangler's default rule for .html). Pages load no script from
// another origin. Runs as wrangler's [build] step (before `wrangler dev` and `wrangler
// deploy`, and in dev whenever ui/ changes) and before test and bench (package.json "pre" scripts).
// A page newer than every source it could include is left as it is: wrangler dev runs this at every
// start, and the tests start many servers at once.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

const root = resolve(import.meta.dirname, "..");
const pagesDir = join(root, "ui");
const outDir = join(root, "dist/pages");
const MARKER = "<!-- bundled-script -->";

mkdirSync(outDir, { recursive: true });

/**
 * zod (which the MCP Apps SDK uses) re-exports every error-message locale as `z.locales`, and a
 * namespace re-export cannot be tree-shaken: 40 % of the task card. Pages use English only.
 */
const englishOnlyZod = {
  name: "english-only-zod",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${join("node_modules", "zod")}`)
        ? { path: join(args.resolveDir, "../locales/en.js"), namespace: "zod-locales" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(args.path)};`,
      resolveDir: pagesDir,
    }));
  },
};

/** The newest modification time under a folder (the pages' sources, ui/shared included). */
function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}
// Sources outside ui/ change the output too: this script and the installed packages the pages bundle.
const sourcesChanged = existsSync(pagesDir)
  ? Math.max(
      newestUnder(pagesDir),
      statSync(import.meta.filename).mtimeMs,
      statSync(join(root, "package-lock.json"), { throwIfNoEntry: false })?.mtimeMs ?? Infinity,
    )
  : 0;
const force = process.argv.includes("--force");

const pages = existsSync(pagesDir)
  ? readdirSync(pagesDir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && existsSync(join(pagesDir, entry.name, "index.html")))
      .map((entry) => entry.name)
  : [];
for (const name of pages) {
  const target = join(outDir, `${name}.html`);
  if (!force && (statSync(target, { throwIfNoEntry: false })?.mtimeMs ?? 0) > sourcesChanged) continue;
  const html = readFileSync(join(pagesDir, name, "index.html"), "utf8");
  if (!html.includes(MARKER))
    throw new Error(`ui/${name}/index.html needs the ${MARKER} marker where the script goes.`);
  // Loaded only when a page needs building: most runs (every wrangler dev start) build nothing.
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [join(pagesDir, name, "main.ts")],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    plugins: [englishOnlyZod],
  });
  const [output] = result.outputFiles;
  // "</script" inside the bundle would end the inline script early.
  const script = output.text.replace(/<\/script/gi, "<\\/script");
  const page = html.replace(MARKER, () => `<script>${script}</script>`);
  // Written whole beside the pages' folder, then renamed into it: a test server starting
  // meanwhile never bundles half a file. One temporary file per process, since several servers
  // may build at once.
  const temporary = join(outDir, "..", `.${name}.${process.pid}.html.tmp`);
  writeFileSync(temporary, page);
  renameSync(temporary, target);
  console.log(`ui/${name} → dist/pages/${name}.html (${(page.length / 1024).toFixed(1)} KiB)`);
}
