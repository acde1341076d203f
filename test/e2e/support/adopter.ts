/**
 * An adopter's Worker (examples/*, test/fixtures/adopter) under `wrangler dev`, with the package
 * resolved as a user's project resolves it. THE ONE PLACE that decides how:
 * - a folder with a package.json of its own (an example a user copies) is copied to a temp folder
 *   and `npm install`s the packed tarball (test/support/package-tarball.ts) in place of the
 *   `mcp-task-worker` it names: the package as npm would publish it (`npm run test:external`);
 * - a fixture with none lies inside this package, so `mcp-task-worker/agents` resolves to
 *   src/adopt through the root tsconfig.json `paths`, as the template's own import does (`npm test`).
 * The adopter's own files always import the package by name.
 */
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative, resolve } from "node:path";
import * as z from "zod";
import { packageTarball } from "../../support/package-tarball.ts";
import { run } from "./fresh-clone.ts";

const ROOT = resolve(import.meta.dirname, "../../..");

const ConfigSchema = z.object({ main: z.string(), alias: z.record(z.string(), z.string()).optional() }).loose();
const ManifestSchema = z.object({ dependencies: z.record(z.string(), z.string()) }).loose();

/** wrangler.jsonc without its comments (whole-line `//` comments only, as the examples write them). */
const withoutComments = (text: string) => text.replace(/^\s*\/\/.*$/gm, "");

const installs = new Map<string, Promise<string>>();

/** Versions to install in place of the ones an example names (a peer range's ends: peer-ranges.test.ts). */
export type Pins = Readonly<Record<string, string>>;

/**
 * A copy of `folder` with its dependencies installed and `mcp-task-worker` taken from the tarball,
 * shared by every process of a run (and the next run, while neither changes): its folder is named
 * by the tarball and the folder's files, and made whole or not at all (installed in a folder of
 * its own, then renamed into place), as the tarball itself is. The external suite's global setup
 * (install-examples.ts) installs the examples before any file starts, so the files that use one
 * do not each run `npm install` at the same moment. Dev dependencies are left out: wrangler and
 * tsc are this checkout's (the dev server runs wrangler from here, with the copy's config).
 */
function installedCopy(folder: string, pins: Pins = {}): Promise<string> {
  const key = `${folder}\0${JSON.stringify(pins)}`;
  let copy = installs.get(key);
  if (copy === undefined) {
    copy = install(folder, pins);
    installs.set(key, copy);
  }
  return copy;
}

/** A hash of the tarball's path (itself named by the packed files), the pins and every file of `folder`. */
function copyKey(tarball: string, folder: string, pins: Pins): string {
  const hash = createHash("sha256").update(tarball).update("\0");
  // Unpinned copies keep the key they had before pins existed.
  if (Object.keys(pins).length > 0) hash.update(JSON.stringify(pins)).update("\0");
  const files = readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && !join(entry.parentPath, entry.name).includes("/node_modules"))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
  for (const file of files) hash.update(relative(folder, file)).update("\0").update(readFileSync(file));
  return hash.digest("hex").slice(0, 16);
}

async function install(folder: string, pins: Pins): Promise<string> {
  const tarball = await packageTarball();
  const home = join(tmpdir(), "mcp-task-worker-adopters");
  const dir = join(home, `${basename(folder)}-${copyKey(tarball, folder, pins)}`);
  if (existsSync(dir)) return dir;
  mkdirSync(home, { recursive: true });
  const staging = mkdtempSync(join(home, "installing-"));
  cpSync(folder, staging, { recursive: true, filter: (source) => !source.includes("/node_modules") });
  const path = join(staging, "package.json");
  const manifest = ManifestSchema.parse(JSON.parse(readFileSync(path, "utf8")));
  if (manifest.dependencies["mcp-task-worker"] === undefined)
    throw new Error(`${folder}/package.json does not depend on mcp-task-worker by name`);
  Object.assign(manifest.dependencies, pins);
  manifest.dependencies["mcp-task-worker"] = `file:${tarball}`;
  writeFileSync(path, JSON.stringify(manifest, null, 2));
  // The registry is reachable, and npm's cache holds what this checkout installed already.
  const npm = run(staging, "npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--omit=dev"]);
  const code = await npm.exited;
  if (code !== 0) throw new Error(`npm install failed in ${staging}:\n${npm.output()}`);
  try {
    renameSync(staging, dir);
  } catch {
    // Another process installed the same copy meanwhile: either is the same install.
    rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}

/** The installed copy of the example in `dir` (relative to the repo root): its own files, the tarball's package. */
export const installedExample = (dir: string, pins: Pins = {}): Promise<string> => installedCopy(join(ROOT, dir), pins);

/**
 * A wrangler config for the adopter in `dir` (relative to the repo root) that `wrangler dev --config`
 * runs: its own config with `main` made absolute, in an installed copy when `dir` has a package.json
 * (with `pins`' versions in place of its own); `edit` changes it further (a test of a mistaken config).
 */
export async function adopterConfig(
  dir: string,
  edit: (config: Record<string, unknown>) => Record<string, unknown> = (c) => c,
  pins: Pins = {},
): Promise<string> {
  const source = join(ROOT, dir);
  const installed = existsSync(join(source, "package.json"));
  const folder = installed ? await installedCopy(source, pins) : source;
  const own = ConfigSchema.parse(JSON.parse(withoutComments(readFileSync(join(folder, "wrangler.jsonc"), "utf8"))));
  // A fixture's config is written elsewhere (below): its relative `alias` paths are made absolute.
  const alias =
    own.alias === undefined || installed
      ? own.alias
      : Object.fromEntries(Object.entries(own.alias).map(([name, path]) => [name, resolve(folder, path)]));
  const config = edit({ ...own, main: join(folder, own.main), ...(alias === undefined ? {} : { alias }) });
  // Beside the copy's own config, so its relative paths (the `alias` stand-ins) read the same (named
  // by this process too: the copy is shared); a fixture's goes to a temp folder, never into the tree.
  const path = installed
    ? join(folder, `wrangler.e2e-${process.pid}-${++written}.json`)
    : join(mkdtempSync(join(tmpdir(), "adopter-config-")), "wrangler.json");
  writeFileSync(path, JSON.stringify(config, null, 1));
  return path;
}

let written = 0;
