/**
 * What `wrangler deploy` would upload as the Worker: its script with nothing that never runs in it
 * (ajv, zod's locales), the two pages as text modules, and all of it under the 250 KiB gzip of
 * issue 15. A size, not a time: the same sources always bundle to the same bytes. docs/bundle.md
 * says what was cut and why.
 */
import { beforeAll, describe, it } from "vitest";
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
