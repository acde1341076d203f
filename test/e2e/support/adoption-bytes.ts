/**
 * What adopting durable tasks adds to a createMcpHandler Worker's upload (issue 49, point 10): the
 * same Worker before and after (bench/bytes/workers), each bundled as `wrangler deploy --dry-run`
 * would upload it, minified. Two starting points: as the example's author wrote it (`import { z }`,
 * which keeps zod's 48 locales) and with `import * as z`, so the second difference is the package's
 * alone. `npm run bench -- bytes` prints them; test/e2e/bundle.test.ts holds the goal.
 */
import { bundleSize, type BundleSize } from "./bundle.ts";

export const ADOPTION_WORKERS = {
  /** bench/peers/workers/create-mcp-handler, minified: the example's starting point, as written. */
  asWritten: "bench/bytes/workers/as-written/wrangler.jsonc",
  /** The same tools, `import * as z`: the Worker without the package. */
  before: "bench/bytes/workers/before/wrangler.jsonc",
  /** `before` adopted with one durable tool (no events, principal or caller): the package from source. */
  after: "bench/bytes/workers/after/wrangler.jsonc",
  /** `after` with the Events extension opted in (`withEvents`), as examples/create-mcp-handler has it. */
  events: "bench/bytes/workers/events/wrangler.jsonc",
} as const;

export type AdoptionBytes = Record<keyof typeof ADOPTION_WORKERS, BundleSize>;

export async function adoptionBytes(): Promise<AdoptionBytes> {
  // One after another: each wrangler is a few hundred MB of esbuild on two shared cores.
  const asWritten = await bundleSize(ADOPTION_WORKERS.asWritten);
  const before = await bundleSize(ADOPTION_WORKERS.before);
  const after = await bundleSize(ADOPTION_WORKERS.after);
  const events = await bundleSize(ADOPTION_WORKERS.events);
  return { asWritten, before, after, events };
}

/** Minified bytes in the script per package (`zod`, `@scope/name`) or, for this package's sources, per src/ folder. */
export function bytesByOrigin(size: BundleSize): Map<string, number> {
  const origins = new Map<string, number>();
  for (const [source, bytes] of size.sources) {
    const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source)?.[1];
    const own =
      /(?:^|\/)(src\/[^/]+)\//.exec(source)?.[1] ?? (/(?:^|\/)src\/[^/]+$/.test(source) ? "src/*.ts" : undefined);
    const origin = dependency ?? own ?? "the Worker's own index.ts";
    origins.set(origin, (origins.get(origin) ?? 0) + bytes);
  }
  return origins;
}
