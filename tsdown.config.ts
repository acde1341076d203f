// The published build (npm `prepack`; docs/api.md, "Built output"): an ESM file and its bundled
// .d.ts for each subpath of package.json "exports", the one list: "./dist/lib/adopt/index.js" is
// built from "src/adopt/index.ts". Dependencies, peers and the runtime's modules stay imports.
import { basename, dirname, join, relative } from "node:path";
import { BUILT, packageEntries } from "./scripts/package-entries.ts";

const ROOT = import.meta.dirname;
const OUT = BUILT;

/**
 * The pages (dist/pages/*.html, scripts/build-ui.mjs) stay files beside the build, which wrangler
 * imports as text: each import is kept, rewritten relative to the chunk that holds it.
 */
const PAGE = "mcp-task-worker-page:";
const pagesBesideTheBuild = {
  name: "pages-beside-the-build",
  resolveId(source: string) {
    return source.endsWith(".html") ? { id: `${PAGE}${basename(source)}`, external: true } : undefined;
  },
  renderChunk(code: string, chunk: { fileName: string }) {
    const from = dirname(join(OUT, chunk.fileName));
    return code.replaceAll(new RegExp(`"${PAGE}([\\w.-]+)"`, "g"), (_, page: string) => {
      const path = relative(from, join("dist/pages", page));
      return JSON.stringify(path.startsWith(".") ? path : `./${path}`);
    });
  },
};

export default {
  entry: Object.fromEntries(packageEntries(ROOT).map((entry) => [entry.name, entry.source])),
  outDir: OUT,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  dts: true,
  sourcemap: false,
  clean: true,
  plugins: [pagesBesideTheBuild],
  // Every package stays an import (tsdown keeps dependencies and peers out already; this fails the
  // build on any other): the consumer's bundler dedupes zod, the SDKs and agents with its own.
  deps: { neverBundle: [/^cloudflare:/, /^node:/], onlyBundle: [] },
  failOnWarn: true,
  // typescript 7.0.2 (the project's, the latest) is what emits the .d.ts; the plugin names 7.1 as
  // the next backend, not yet released.
  suppressWarnings: ["The `tsgo` generator on TypeScript 7.0 is deprecated"],
  checks: { pluginTimings: false },
};
