/**
 * Headless Chromium unpacked once per machine, whole or not at all. `@sparticuz/chromium` unpacks
 * straight into `os.tmpdir()/chromium` and returns any file already there, so two files launching
 * together on a fresh machine got a half-written binary (`spawn ETXTBSY`). Here each unpack goes to
 * a folder of its own, then is renamed into place: a rename is atomic, so the folder is either
 * absent or complete. The e2e and external suites' global setup (the default export) unpacks before
 * any file starts; `launchBrowser` asks again, which costs one `stat` once it is there.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { mkdtemp, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { z } from "zod";

const PackageJson = z.object({ version: z.string() });
const ROOT = resolve(import.meta.dirname, "../../..");

/** One folder per package version, so an upgrade unpacks its own binary beside the old one. */
function chromiumDir(): string {
  const entry = createRequire(import.meta.url).resolve("@sparticuz/chromium");
  const { version } = PackageJson.parse(JSON.parse(readFileSync(join(dirname(entry), "../package.json"), "utf8")));
  return join(tmpdir(), `mcp-task-worker-chromium-${version}`);
}

/** Runs the package's own unpack in a child whose temp folder is `into`, so nothing else sees it half done. */
function unpackInto(into: string): Promise<void> {
  const script = "const { default: c } = await import('@sparticuz/chromium'); await c.executablePath();";
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ["--input-type=module", "-e", script], {
      cwd: ROOT,
      env: { ...process.env, TMPDIR: into },
      stdio: ["ignore", "ignore", "pipe"],
    });
    let errors = "";
    child.stderr.on("data", (chunk) => (errors += String(chunk)));
    child.on("error", fail);
    child.on("close", (status) =>
      status === 0
        ? done()
        : fail(new Error(`unpacking @sparticuz/chromium into ${into} failed (exit ${status}): ${errors.trim()}`)),
    );
  });
}

/** The path of a complete Chromium binary, unpacking it first if this machine has none yet. */
export async function unpackedChromium(): Promise<string> {
  const dir = chromiumDir();
  const binary = join(dir, "chromium");
  if (existsSync(binary)) return binary;
  const staging = await mkdtemp(join(tmpdir(), "mcp-task-worker-chromium-unpacking-"));
  try {
    await unpackInto(staging);
    await rename(staging, dir);
  } catch (error) {
    // Another process renamed its complete copy into place first: use that one.
    if (!existsSync(binary)) throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return binary;
}

/** Global setup: unpack before any file starts, so no two files race to do it. */
export default async function setup(): Promise<void> {
  await unpackedChromium();
}
