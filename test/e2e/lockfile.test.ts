/**
 * package-lock.json serves every platform and is what `npm install` would write: a lockfile that
 * lacks, say, workerd's darwin build makes `npm ci` on a Mac install no runtime for wrangler, and
 * `npm install` on a fresh clone rewrites it (issue 27). Plain Node tests, beside the e2e suite for
 * its Node types; the second asks the npm registry (`.ci/run` also checks the lockfile after install).
 */
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

interface LockedPackage {
  optionalDependencies?: Record<string, string>;
  os?: string[];
}
const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as {
  packages: Record<string, LockedPackage>;
};

/** Where npm would find `name` for the package at `path`: its own node_modules, then each ancestor's. */
function resolveLocked(path: string, name: string): string | undefined {
  for (let base = path; ; base = base.slice(0, Math.max(0, base.lastIndexOf("/node_modules/")))) {
    const candidate = base === "" ? `node_modules/${name}` : `${base}/node_modules/${name}`;
    if (lock.packages[candidate]) return candidate;
    if (base === "") return undefined;
  }
}

describe("package-lock.json", () => {
  it("lists every platform's build of each package that ships per-platform binaries (workerd, esbuild, …)", ({
    expect,
  }) => {
    const missing: string[] = [];
    let platformPackages = 0;
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const name of Object.keys(entry.optionalDependencies ?? {})) {
        const found = resolveLocked(path, name);
        if (found === undefined) missing.push(`${path || "(root)"} → ${name}`);
        else if (lock.packages[found]?.os) platformPackages += 1;
      }
    }
    expect(missing).toEqual([]);
    // The check above has something to check: workerd's 5 and esbuild's 26 builds at least.
    expect(platformPackages).toBeGreaterThan(30);
    for (const os of ["darwin", "linux", "win32"])
      expect(
        lock.packages[
          resolveLocked("node_modules/workerd", `@cloudflare/workerd-${os === "win32" ? "windows" : os}-64`) ?? ""
        ]?.os,
      ).toEqual([os]);
  });

  it("is what `npm install` makes of package.json: resolving it again changes no byte", ({ expect }) => {
    const dir = mkdtempSync(join(tmpdir(), "lockfile-"));
    try {
      copyFileSync(join(ROOT, "package.json"), join(dir, "package.json"));
      copyFileSync(join(ROOT, "package-lock.json"), join(dir, "package-lock.json"));
      execFileSync("npm", ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"], {
        cwd: dir,
        stdio: "pipe",
      });
      const after = readFileSync(join(dir, "package-lock.json"), "utf8");
      expect(
        after === readFileSync(join(ROOT, "package-lock.json"), "utf8"),
        "npm install rewrites package-lock.json: commit the rewritten file",
      ).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
