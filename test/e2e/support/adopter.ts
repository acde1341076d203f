/**
 * An adopter's Worker (examples/*, test/fixtures/adopter) under `wrangler dev`, with the package
 * resolved. THE ONE PLACE to change when the package lands: today `mcp-task-worker/agents` is
 * aliased to this repo's src/adopt (a generated wrangler config); tomorrow the adopter is installed
 * from `npm pack`'s tarball (test/support/package-tarball.ts) and its own config is used as it is.
 * The adopter's own files always import the package by name.
 */
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import * as z from "zod";

const ROOT = resolve(import.meta.dirname, "../../..");

/** The package's entry points, as the package's `exports` will map them. */
const PACKAGE_ALIASES = {
  "mcp-task-worker/agents": join(ROOT, "src/adopt/index.ts"),
  "mcp-task-worker/mcp-agent": join(ROOT, "src/adopt/mcp-agent-index.ts"),
};

const ConfigSchema = z.object({ main: z.string() }).loose();

/** wrangler.jsonc without its comments (whole-line `//` comments only, as the examples write them). */
const withoutComments = (text: string) => text.replace(/^\s*\/\/.*$/gm, "");

/**
 * A wrangler config for the adopter in `dir` (relative to the repo root) that `wrangler dev --config`
 * runs: its own config, `main` made absolute, and the package aliased to the local sources; `edit`
 * changes it further (a test of a mistaken config).
 */
export function adopterConfig(
  dir: string,
  edit: (config: Record<string, unknown>) => Record<string, unknown> = (c) => c,
): string {
  const folder = join(ROOT, dir);
  const own = ConfigSchema.parse(JSON.parse(withoutComments(readFileSync(join(folder, "wrangler.jsonc"), "utf8"))));
  const config = edit({ ...own, main: join(folder, own.main), alias: PACKAGE_ALIASES });
  const path = join(mkdtempSync(join(tmpdir(), "adopter-config-")), "wrangler.json");
  writeFileSync(path, JSON.stringify(config, null, 1));
  return path;
}
