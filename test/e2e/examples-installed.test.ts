// Each example as a user copies it, installed from the tarball (support/install-examples.ts):
// - it passes its own `npm run typecheck` (`wrangler types && tsc --noEmit`): the package's sources
//   type against the bindings they read (docs/api.md, "Bindings and settings"), never against the
//   consumer's generated `Env`, which names only what that Worker binds (an adopter binds no
//   SESSIONS, STEPS or WEBHOOKS);
// - its bundle (`wrangler deploy --dry-run`) stays within the size its wrangler.jsonc's `minify` and
//   `alias` stand-ins reach (docs/bundle.md; docs/adopting.md has each figure).
import { join, resolve } from "node:path";
import { describe, it } from "vitest";
import { adopterConfig, installedExample } from "./support/adopter";
import { bundleSize } from "./support/bundle";
import { run } from "./support/fresh-clone";
import { EXAMPLES } from "./support/install-examples";

const BIN = resolve(import.meta.dirname, "../../node_modules/.bin");

/** Gzip KiB each example's bundle stays within, and what it measured without its trims. */
const BUNDLE_LIMITS: Record<string, { kib: number; untrimmed: string }> = {
  // 195.5 measured (2026-12-06, issue 49: no pages, no SDK v1, the zod/v4 stand-in's z a plain object;
  // 240.7 before), 440 without minify and the ajv and zod/v4 stand-ins. test/e2e/bundle.test.ts holds
  // what adoption adds (docs/adopting.md, "What adoption costs in bytes").
  "examples/create-mcp-handler": { kib: 205, untrimmed: "440 KiB" },
  // 444.5 and 457.7 measured (2026-12-06, issue 49; 476.8 and 490.2 before; about +1.6 since, per-task principal, task-link check, Origin guard): 786.8 and 806.6 without
  // minify and the stand-ins (mimetext too). The Events extension stays out: neither imports withEvents.
  "examples/mcp-agent": { kib: 455, untrimmed: "786.8 KiB" },
  "examples/dual-lane": { kib: 468, untrimmed: "806.6 KiB" },
  // 488.6 measured (2026-12-06, issue 49; 526.6 before): agents/mcp brings McpAgent and both SDKs.
  "examples/sdk-v1-handler": { kib: 500, untrimmed: "not measured" },
};

describe.each(EXAMPLES)("%s, installed from the tarball", (example) => {
  it("passes `wrangler types && tsc --noEmit` with its own tsconfig", async ({ expect }) => {
    const dir = await installedExample(example);
    for (const [tool, args] of [
      ["wrangler", ["types"]],
      ["tsc", ["--noEmit"]],
    ] as const) {
      const command = run(dir, join(BIN, tool), [...args]);
      expect(await command.exited, `${tool} ${args.join(" ")} in ${dir}:\n${command.output()}`).toBe(0);
    }
  });

  it("bundles with `wrangler deploy --dry-run` within its limit", async ({ expect }) => {
    const limit = BUNDLE_LIMITS[example];
    if (limit === undefined) throw new Error(`no bundle limit for ${example}: add one to BUNDLE_LIMITS`);
    const size = await bundleSize(await adopterConfig(example));
    expect(size.gzipKiB, `${example}: ${limit.untrimmed} gzip untrimmed`).toBeLessThanOrEqual(limit.kib);
  });
});
