/**
 * A Worker's upload size as `wrangler deploy` would send it: `wrangler deploy --dry-run --outdir`
 * bundles without uploading, and each JavaScript module is gzipped here (zlib's default level, the
 * figure wrangler prints as "gzip"). Static assets are uploaded apart from the script and are not
 * counted. The esbuild metafile says which source files the bytes come from.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const ROOT = resolve(import.meta.dirname, "../../..");
const WRANGLER = join(ROOT, "node_modules/wrangler/bin/wrangler.js");

export interface BundleSize {
  rawKiB: number;
  gzipKiB: number;
  /** Bytes in the output per source file (paths relative to the repo root, as esbuild names them). */
  sources: Map<string, number>;
}

interface Metafile {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}

/** `config`: a wrangler config relative to the repo root, or none for ours. */
export async function bundleSize(config?: string): Promise<BundleSize> {
  const outdir = mkdtempSync(join(tmpdir(), "worker-bundle-"));
  const metafile = join(outdir, "meta.json");
  try {
    const args = [WRANGLER, "deploy", "--dry-run", "--outdir", outdir, "--metafile", metafile, ...(config !== undefined ? ["--config", config] : [])];
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", NO_COLOR: "1" } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((r) => child.once("exit", r));
    if (code !== 0) throw new Error(`wrangler deploy --dry-run failed (${code}):\n${output}`);
    let raw = 0;
    let gzip = 0;
    for (const name of readdirSync(outdir).filter((n) => /\.(m?js|cjs)$/.test(n))) {
      const bytes = readFileSync(join(outdir, name));
      raw += bytes.length;
      gzip += gzipSync(bytes).length;
    }
    const sources = new Map<string, number>();
    const meta = JSON.parse(readFileSync(metafile, "utf8")) as Metafile;
    for (const [name, out] of Object.entries(meta.outputs)) {
      if (!/\.(m?js|cjs)$/.test(name)) continue;
      for (const [source, { bytesInOutput }] of Object.entries(out.inputs)) sources.set(source, (sources.get(source) ?? 0) + bytesInOutput);
    }
    return { rawKiB: raw / 1024, gzipKiB: gzip / 1024, sources };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/** The built pages (dist/pages/, the Worker's static assets), each gzipped as above. */
export function pagesSize(): { rawKiB: number; gzipKiB: number } {
  const dir = join(ROOT, "dist/pages");
  let raw = 0;
  let gzip = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".html"))) {
    const bytes = readFileSync(join(dir, name));
    raw += bytes.length;
    gzip += gzipSync(bytes).length;
  }
  return { rawKiB: raw / 1024, gzipKiB: gzip / 1024 };
}
