/**
 * The package's entries, read from package.json "exports", the one list (docs/api.md, "Built
 * output"): a subpath's built file names its source, "./dist/lib/adopt/index.js" built from
 * "src/adopt/index.ts".
 * scripts/build-package.ts builds them; tests check the docs and tsconfig.json "paths" against them.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";

/** Where the build writes, relative to the package's root. */
export const BUILT = "dist/lib";

export interface PackageEntry {
  /** The subpath a consumer imports: ".", "./agents". */
  subpath: string;
  /** The entry's name in the build, its path under BUILT without the extension: "adopt/index". */
  name: string;
  /** Its source, relative to the root: "src/adopt/index.ts". */
  source: string;
  /** What package.json names for it: { types: "./dist/lib/adopt/index.d.ts", default: "./dist/lib/adopt/index.js" }. */
  target: { types: string; default: string };
}

/** Each subpath of `root`/package.json "exports" but ./package.json; throws on one that is not a built file. */
export function packageEntries(root: string): PackageEntry[] {
  const manifest: { exports: Record<string, unknown> } = JSON.parse(
    readFileSync(resolve(root, "package.json"), "utf8"),
  );
  return Object.entries(manifest.exports)
    .filter(([subpath]) => subpath !== "./package.json")
    .map(([subpath, target]) => {
      const built = typeof target === "object" && target !== null && "default" in target ? target.default : undefined;
      const name = typeof built === "string" ? new RegExp(`^\\./${BUILT}/(.+)\\.js$`).exec(built)?.[1] : undefined;
      if (name === undefined)
        throw new Error(`package.json exports["${subpath}"].default is not a .js file under ./${BUILT}/`);
      const expected = { types: `./${BUILT}/${name}.d.ts`, default: `./${BUILT}/${name}.js` };
      if (JSON.stringify(target) !== JSON.stringify(expected))
        throw new Error(`package.json exports["${subpath}"] should be ${JSON.stringify(expected)} (types first)`);
      return { subpath, name, source: `src/${name}.ts`, target: expected };
    });
}
