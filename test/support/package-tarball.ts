/**
 * The package as npm would publish it: `npm pack` of this checkout, once per state of the files it
 * packs (their contents hashed), so every test file of a run, in any worker, installs the same .tgz.
 * Consumers install it as `"mcp-task-worker": "file:<path>"`, never from the tree.
 */
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { promisify } from "node:util";

const ROOT = resolve(import.meta.dirname, "../..");
/**
 * What the tarball is made from: the built pages, the sources and settings of the package's build
 * (npm `prepack` runs scripts/build-package.ts, which writes dist/lib), the manifest.
 */
const PACKED = [
  "src",
  "dist/pages",
  "scripts/build-package.ts",
  "scripts/package-entries.ts",
  "tsconfig.json",
  "tsconfig.build.json",
  "worker-configuration.d.ts",
  "package.json",
  "README.md",
  "CHANGELOG.md",
];

/** The files at `path` (a file, or a folder's files at any depth), relative to the root. */
function filesUnder(path: string): string[] {
  const full = join(ROOT, path);
  if (!existsSync(full)) return [];
  if (statSync(full).isFile()) return [path];
  return readdirSync(full, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

/** A hash of every packed file's path and contents: a new one means a new tarball. */
function contentKey(): string {
  const hash = createHash("sha256");
  for (const file of PACKED.flatMap(filesUnder).sort()) {
    hash
      .update(file)
      .update("\0")
      .update(readFileSync(join(ROOT, file)));
  }
  return hash.digest("hex").slice(0, 16);
}

let packed: Promise<string> | undefined;

/** The .tgz of this checkout (built: `npm pack` runs the `prepack` build of the pages and the package). */
export function packageTarball(): Promise<string> {
  packed ??= pack();
  return packed;
}

async function pack(): Promise<string> {
  const home = join(tmpdir(), "mcp-task-worker-tarballs");
  const dir = join(home, contentKey());
  const done = () => readdirSync(dir).find((name) => name.endsWith(".tgz"));
  if (existsSync(dir)) {
    const tgz = done();
    if (tgz) return join(dir, tgz);
  }
  mkdirSync(home, { recursive: true });
  const staging = mkdtempSync(join(home, "packing-"));
  await promisify(execFile)("npm", ["pack", "--pack-destination", staging, "--silent"], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1" },
  });
  try {
    // Another worker may have packed the same files meanwhile: either copy is the same package.
    renameSync(staging, dir);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
  const tgz = done();
  if (!tgz) throw new Error(`npm pack left no .tgz in ${dir}`);
  return join(dir, tgz);
}
