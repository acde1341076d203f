/**
 * Variants of our Worker for an A/B run (bench/ab/run.ts): each is this repo's wrangler.toml, or a
 * file of the package's face (src/package), with one change, written to a temporary directory with
 * absolute paths, so no file of the repo is touched and every variant bundles the same sources
 * otherwise. A patched face is a copy of src/package/index.ts that the `mcp-task-worker` name is
 * aliased to (wrangler.toml [alias]), importing the patched files beside it and the rest from src/.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { DevServerOptions } from "../../test/e2e/support/wrangler-dev.ts";

const ROOT = resolve(import.meta.dirname, "../..");

interface Variant {
  description: string;
  /** Another entry module (relative to the repo root) in place of src/index.ts. */
  main?: string;
  /** How its `wrangler dev` is started, where that differs. */
  dev?: Pick<DevServerOptions, "logLevel" | "processEnv">;
  toml?: (text: string) => string;
  /** Changes to files of src/package, by file name (`task-object.ts`). */
  patch?: Record<string, (text: string) => string>;
}

/** Drops a `[name]` table (up to the next table) from wrangler.toml. */
const dropTable = (name: string) => (text: string) =>
  text.replace(new RegExp(`^\\[${name}\\]\\n(?:(?!\\[).*\\n)*`, "m"), "");

const dropLines = (pattern: RegExp) => (text: string) => {
  const next = text.replace(pattern, "");
  if (next === text) throw new Error(`variant: no line matches ${pattern}`);
  return next;
};

const replaceOnce = (from: string | RegExp, to: string) => (text: string) => {
  if (typeof from === "string" ? !text.includes(from) : !from.test(text))
    throw new Error(`variant: "${String(from)}" not found`);
  return text.replace(from, to);
};

/** Where the transition log's observer is listed, however the list is wrapped. */
const TRANSITION_LOG_ENTRY = /sessionObserver,\s*transitionLogObserver,/;

/** The TaskObject's observers without the transition log. */
const noTransitionLog = replaceOnce(TRANSITION_LOG_ENTRY, "sessionObserver,");

/** How a variant's `wrangler dev` is started, beyond its config. */
export const devOptions = (name: string): Pick<DevServerOptions, "logLevel" | "processEnv"> =>
  VARIANTS[name]?.dev ?? {};

export const VARIANTS: Record<string, Variant> = {
  main: { description: "the repo as it is" },
  "no-transition-log": {
    description: "no transition log observer (src/core/object/transition-log.ts unwired)",
    patch: { "task-object.ts": noTransitionLog },
  },
  "no-observability": {
    description: "no [observability] table in wrangler.toml (Workers Logs off)",
    toml: dropTable("observability"),
  },
  "no-log-no-observability": {
    description: "neither the transition log nor [observability]",
    toml: dropTable("observability"),
    patch: { "task-object.ts": noTransitionLog },
  },
  "log-level-warn": {
    description: "the repo as it is, under wrangler dev --log-level warn (info lines are not printed)",
    dev: { logLevel: "warn" },
  },
  "no-inspector-proxy": {
    description:
      "the repo as it is, with wrangler's inspector proxy not attached (VSCODE_INSPECTOR_OPTIONS set: the runtime's console calls no longer become inspector events)",
    dev: { processEnv: { VSCODE_INSPECTOR_OPTIONS: "{}" } },
  },
  "no-inspector-proxy-no-log": {
    description: "no inspector proxy and no transition log observer",
    dev: { processEnv: { VSCODE_INSPECTOR_OPTIONS: "{}" } },
    patch: { "task-object.ts": noTransitionLog },
  },
  "transition-log-unprinted": {
    description: "the transition lines built (JSON.stringify) but not logged",
    patch: {
      "task-object.ts": (text) =>
        replaceOnce(
          TRANSITION_LOG_ENTRY,
          "sessionObserver, async ({ record, events }) => void transitionLines(record, events).map((line) => JSON.stringify(line)),",
        )(`import { transitionLines } from "../core/object/transition-log";\n${text}`),
    },
  },
  "with-assets": {
    description:
      "an [assets] table as the pages had before (static assets, run_worker_first): the asset router in front of every request, the Worker unchanged",
    toml: (text) =>
      `${text}\n[assets]\ndirectory = ${JSON.stringify(join(ROOT, "dist/pages"))}\nbinding = "ASSETS"\nrun_worker_first = true\nhtml_handling = "none"\nnot_found_handling = "none"\n`,
  },
  "health-first": {
    description: "GET /health answered before hono, as the createMcpHandler peer answers it",
    patch: {
      "create-task-worker.ts": replaceOnce(
        "fetch: app.fetch,",
        'fetch: (request, env, ctx) => (new URL(request.url).pathname === "/health" ? Response.json({ ok: true }) : app.fetch(request, env, ctx)),',
      ),
    },
  },
  "no-request-signal": {
    description: "without the enable_request_signal compatibility flag",
    toml: replaceOnce('"enable_request_signal", ', ""),
  },
  "no-strict-public": {
    description: "without the global_fetch_strictly_public compatibility flag (CIMD off)",
    toml: replaceOnce('"enable_request_signal", "global_fetch_strictly_public"]', '"enable_request_signal"]'),
  },
  "peer-like": {
    description: "as the createMcpHandler peer's config: no [observability], no enable_request_signal, no minify",
    toml: (text) =>
      replaceOnce(
        '["nodejs_compat", "enable_request_signal", "global_fetch_strictly_public"]',
        '["nodejs_compat"]',
      )(replaceOnce("minify = true", "minify = false")(dropTable("observability")(text))),
  },
  "no-minify": { description: "minify = false", toml: replaceOnce("minify = true", "minify = false") },
  "no-zod-v4-alias": {
    description: "without the zod/v4 stand-in (wrangler.toml [alias])",
    toml: dropLines(/^"zod\/v4(\/core)?" = .*\n/gm),
  },
  "no-ajv-alias": {
    description: "without the ajv stand-ins (wrangler.toml [alias])",
    toml: dropLines(/^"ajv(-formats)?" = .*\n/gm),
  },
  "scale-counters": {
    description: "the bench-only counting build (bench/scale/worker/entry.ts)",
    main: "bench/scale/worker/entry.ts",
  },
};

/**
 * Writes the package's face into `dir` with `patch` applied: index.ts and the patched files, their
 * imports made absolute (a patched file beside them, anything else in src/). Returns index.ts's path.
 */
function writeFace(dir: string, patch: Record<string, (text: string) => string>): string {
  const face = join(ROOT, "src/package");
  const out = join(dir, "package");
  mkdirSync(out);
  const absolute = (text: string) =>
    text.replace(/from "(\.{1,2})\/([^"]+)"/g, (_, up: string, path: string) => {
      const target = up === "." && `${path}.ts` in patch ? join(out, path) : join(face, up, path);
      return `from "${target}"`;
    });
  for (const [file, change] of Object.entries(patch)) {
    writeFileSync(join(out, file), absolute(change(readFileSync(join(face, file), "utf8"))));
  }
  const index = join(out, "index.ts");
  writeFileSync(index, absolute(readFileSync(join(face, "index.ts"), "utf8")));
  return index;
}

/** Writes the variant's wrangler config (and patched files, if any); returns the config's absolute path. */
export function writeVariant(name: string): string {
  const variant = VARIANTS[name];
  if (!variant) throw new Error(`unknown variant ${name}; known: ${Object.keys(VARIANTS).join(", ")}`);
  const dir = mkdtempSync(join(tmpdir(), `ab-${name}-`));
  const main = join(ROOT, variant.main ?? "src/index.ts");
  let toml = readFileSync(join(ROOT, "wrangler.toml"), "utf8")
    .replace(/^main = .*$/m, `main = ${JSON.stringify(main)}`)
    .replace(/"\.\/(src|dist|node_modules)\//g, (_, folder: string) => `"${join(ROOT, folder)}/`);
  // The pages are built before the bench (package.json "prebench"); [build] names a relative path.
  toml = dropTable("build")(toml);
  if (variant.patch) {
    // The template and its tools import the engine by name: the alias hands them the patched face.
    const face = writeFace(dir, variant.patch);
    toml = replaceOnce("[alias]\n", `[alias]\n"mcp-task-worker" = ${JSON.stringify(face)}\n`)(toml);
  }
  if (variant.toml) toml = variant.toml(toml);
  const config = join(dir, "wrangler.toml");
  writeFileSync(config, toml);
  return config;
}
