/**
 * The previous release as an operator ran it, for the upgrade rehearsal: the template 0.1.0 (its last
 * state, commit f8921db: CHANGELOG.md, 0.2.0) unpacked from git into a folder of its own, its
 * node_modules this checkout's (0.1.0 locked the same versions), served by `wrangler dev` on a
 * state directory that this release's server then takes over. And the state's TaskObject files,
 * read after a server has stopped.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, realpathSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";

export const PREVIOUS_RELEASE = { version: "0.1.0", commit: "f8921db" };

const ROOT = resolve(import.meta.dirname, "../../..");

/** Unpacks the previous release's tree; returns its wrangler config's path (absolute, so wrangler builds it there). */
export function unpackPreviousRelease(): string {
  const dir = mkdtempSync(join(tmpdir(), `mcp-task-worker-${PREVIOUS_RELEASE.version}-`));
  const tar = execFileSync("git", ["-C", ROOT, "archive", "--format=tar", PREVIOUS_RELEASE.commit], {
    maxBuffer: 256 * 1024 * 1024,
  });
  execFileSync("tar", ["-x", "-C", dir], { input: tar });
  symlinkSync(realpathSync(join(ROOT, "node_modules")), join(dir, "node_modules"));
  // Its pages, as its wrangler.toml's [build] makes them (wrangler runs that step from the caller's folder).
  execFileSync(process.execPath, ["scripts/build-ui.mjs"], { cwd: dir, stdio: "ignore" });
  return join(dir, "wrangler.toml");
}

/** The TaskObjects' SQLite files in a stopped server's state directory. */
export function taskObjectFiles(stateDir: string): string[] {
  const dir = join(stateDir, "v3/do/mcp-task-worker-TaskObject");
  return readdirSync(dir)
    .filter((name) => name.endsWith(".sqlite"))
    .map((name) => join(dir, name));
}

/** The file holding task `taskId` and its task row's version columns (the server must be stopped). */
export function storedVersions(
  stateDir: string,
  taskId: string,
): { file: string; schema: number; firstSchema: number } {
  for (const file of taskObjectFiles(stateDir)) {
    const db = new DatabaseSync(file, { readOnly: true });
    try {
      const row = db.prepare("SELECT record, schema, first_schema FROM task WHERE id = 1").get();
      if (!row || typeof row["record"] !== "string" || !row["record"].includes(taskId)) continue;
      return { file, schema: Number(row["schema"]), firstSchema: Number(row["first_schema"]) };
    } catch {
      // No task table with those columns: an unused object, or one no release 0.2 read.
    } finally {
      db.close();
    }
  }
  throw new Error(`no TaskObject file holds task ${taskId}`);
}
