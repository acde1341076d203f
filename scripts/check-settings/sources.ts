/**
 * Where a deployment's settings come from, read as wrangler would hand them to the Worker: the
 * config's `[vars]` (of one `--env`, if given), a `.dev.vars` file (what `wrangler dev` adds) and
 * `--var NAME:value` pairs (wrangler's own flag), later sources overriding earlier ones.
 */
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { parseEnv } from "node:util";
import { unstable_readConfig } from "wrangler";

export interface VarsSource {
  /** How the report names it: `wrangler.toml [vars]`, `.dev.vars`, `--var`. */
  label: string;
  vars: Record<string, unknown>;
}

/** The config's `[vars]` (of `env`'s section, if given), found as wrangler finds it when `path` is undefined. */
export function configVars(path: string | undefined, env?: string): VarsSource {
  const config = unstable_readConfig({
    ...(path !== undefined && { config: path }),
    ...(env !== undefined && { env }),
  });
  const found = config.configPath ?? path;
  const file = found === undefined ? "the wrangler config" : relative(process.cwd(), found);
  return { label: `${file} [vars]${env === undefined ? "" : ` (env ${env})`}`, vars: { ...config.vars } };
}

/** A `.dev.vars` file: dotenv lines, as wrangler dev reads them. */
export function devVars(path: string): VarsSource {
  return { label: path, vars: { ...parseEnv(readFileSync(path, "utf8")) } };
}

/** `NAME:value` pairs, as `wrangler dev --var` takes them (the value may hold colons: `API_KEYS:alice:tok`). */
export function cliVars(pairs: readonly string[]): VarsSource {
  const vars: Record<string, string> = {};
  for (const pair of pairs) {
    const colon = pair.indexOf(":");
    if (colon <= 0) throw new Error(`--var ${pair}: expected NAME:value, as wrangler dev takes it`);
    vars[pair.slice(0, colon)] = pair.slice(colon + 1);
  }
  return { label: "--var", vars };
}
