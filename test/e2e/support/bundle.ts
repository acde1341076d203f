/**
 * A Worker's upload size as `wrangler deploy` would send it: `wrangler deploy --dry-run --outdir`
 * bundles without uploading, and each module it writes (the script, and the pages it imports as
 * text modules) is gzipped here (zlib's default level, the figure wrangler prints as "gzip").
 * The esbuild metafile says which source files the script's bytes come from.
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
  /** Bytes in the script per source file (paths relative to the repo root, as esbuild names them). */
  sources: Map<string, number>;
  /** gzip KiB per uploaded module: the script (`index.js`) and each text module (`<hash>-console.html`…). */
  modules: Map<string, number>;
}

interface Metafile {
  outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }>;
}

/** `config`: a wrangler config relative to the repo root, or none for ours. */
export async function bundleSize(config?: string): Promise<BundleSize> {
  const outdir = mkdtempSync(join(tmpdir(), "worker-bundle-"));
  const metafile = join(outdir, "meta.json");
  try {
    const args = [
      WRANGLER,
      "deploy",
      "--dry-run",
      "--outdir",
      outdir,
      "--metafile",
      metafile,
      ...(config !== undefined ? ["--config", config] : []),
    ];
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CI: "true", NO_COLOR: "1" },
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const code = await new Promise<number | null>((r) => child.once("exit", r));
    if (code !== 0) throw new Error(`wrangler deploy --dry-run failed (${code}):\n${output}`);
    let raw = 0;
    let gzip = 0;
    const modules = new Map<string, number>();
    // Every file of the output is a module but the source map, wrangler's README and our metafile.
    for (const name of readdirSync(outdir).filter((n) => !/\.map$|^README\.md$|^meta\.json$/.test(n))) {
      const bytes = readFileSync(join(outdir, name));
      raw += bytes.length;
      gzip += gzipSync(bytes).length;
      modules.set(name, gzipSync(bytes).length / 1024);
    }
    const sources = new Map<string, number>();
    const meta = JSON.parse(readFileSync(metafile, "utf8")) as Metafile;
    for (const [name, out] of Object.entries(meta.outputs)) {
      if (!/\.(m?js|cjs)$/.test(name)) continue;
      for (const [source, { bytesInOutput }] of Object.entries(out.inputs))
        sources.set(source, (sources.get(source) ?? 0) + bytesInOutput);
    }
    return { rawKiB: raw / 1024, gzipKiB: gzip / 1024, sources, modules };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}
