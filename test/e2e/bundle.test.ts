/**
 * What `wrangler deploy` would upload as the Worker: its script with nothing that never runs in it
 * (ajv, zod's locales), the two pages as text modules, and all of it under the 250 KiB gzip of
 * issue 15; and what adoption adds to a createMcpHandler Worker, within issue 49's 60 KiB. A size,
 * not a time: the same sources always bundle to the same bytes. docs/bundle.md and docs/adopting.md
 * say what was cut and why.
 */
import { beforeAll, describe, it } from "vitest";
import { adoptionBytes, type AdoptionBytes } from "./support/adoption-bytes";
import { bundleSize, type BundleSize } from "./support/bundle";

const GOAL_KIB = 250;

let bundle: BundleSize;

beforeAll(async () => {
  bundle = await bundleSize();
});

const sourcesMatching = (pattern: RegExp): string[] =>
  [...bundle.sources].filter(([source, bytes]) => bytes > 0 && pattern.test(source)).map(([source]) => source);

describe("the Worker bundle", () => {
  it(`is at most ${GOAL_KIB} KiB gzip`, ({ expect }) => {
    expect(bundle.gzipKiB).toBeLessThanOrEqual(GOAL_KIB);
  });

  it("carries no ajv: the SDK's default validator cannot run in workerd (wrangler.toml [alias])", ({ expect }) => {
    expect(sourcesMatching(/node_modules\/(ajv|ajv-formats|fast-uri)\//)).toEqual([]);
  });

  it("carries zod's English messages only: every import of zod is a namespace import", ({ expect }) => {
    expect(sourcesMatching(/node_modules\/zod\/v4\/locales\/(?!en\.js$)/)).toEqual([]);
  });

  it("carries the pages as text modules beside the script, not bundled into it (src/pages)", ({ expect }) => {
    expect(
      [...bundle.modules.keys()]
        .filter((name) => name.endsWith(".html"))
        .map((name) => name.replace(/^[0-9a-f]+-/, ""))
        .sort(),
    ).toEqual(["console.html", "task-card.html"]);
    expect(sourcesMatching(/(^|\/)ui\//)).toEqual([]);
  });
});

/** Issue 49: what adopting costs a createMcpHandler Worker with one durable tool, over its starting point as written. */
const ADOPTION_GOAL_KIB = 60;

describe("an adopter's bundle (bench/bytes/workers, `npm run bench -- bytes`)", () => {
  let sizes: AdoptionBytes;

  beforeAll(async () => {
    sizes = await adoptionBytes();
  });

  it(`adds at most ${ADOPTION_GOAL_KIB} KiB gzip to its starting point as written`, ({ expect }) => {
    expect(sizes.after.gzipKiB - sizes.asWritten.gzipKiB).toBeLessThanOrEqual(ADOPTION_GOAL_KIB);
  });

  it("carries neither page: the adopter lanes serve no console and no task card (src/pages)", ({ expect }) => {
    for (const size of [sizes.after, sizes.events]) expect([...size.modules.keys()]).toEqual(["index.js"]);
  });

  it("loads no SDK v1 and no classic zod beyond what its own McpServer uses", ({ expect }) => {
    const sdkV1 = [...sizes.after.sources].filter(
      ([source, bytes]) => bytes > 0 && source.includes("/@modelcontextprotocol/sdk/"),
    );
    expect(sdkV1.map(([source]) => source)).toEqual([]);
    const zod = (size: BundleSize) =>
      [...size.sources]
        .filter(([source]) => source.includes("/node_modules/zod/"))
        .reduce((sum, [, bytes]) => sum + bytes, 0);
    // The zod/v4 stand-in's `z` is no namespace (src/shims/zod-v4): 35 KiB raw more when it was.
    expect(zod(sizes.after) - zod(sizes.before)).toBeLessThan(4096);
  });
});
