/**
 * Checks a deployment's vars against this package's rules without serving: the same reading as the
 * Worker's (src/config.ts, readVars; src/http/api-keys.ts for the API_KEYS list), so a value it
 * refuses here is one the server would answer `503 settings_invalid` (or "Fix the API_KEYS secret")
 * for. docs/deploying.md, "Upgrading", says when to run it.
 */
import { readVars } from "../../src/config.ts";
import { parseApiKeys } from "../../src/http/api-keys.ts";
import { settingDocs } from "../../src/settings/kinds.ts";
import { SETTING_NAMES, SETTING_SCHEMAS } from "../../src/settings/vars.ts";
import type { VarsSource } from "./sources.ts";

export interface SettingsReport {
  /** Each refused var, as the 503 names it; empty when the server would serve. */
  refused: string[];
  /** Names in the sources that are no setting of this package: the server ignores them (a typo?). */
  unknown: string[];
  /** Secrets none of the sources set: `wrangler secret put` values cannot be read back, so they went unchecked. */
  unsetSecrets: string[];
}

const SECRETS = SETTING_NAMES.filter((name) => {
  const schema = SETTING_SCHEMAS.get(name);
  return schema !== undefined && settingDocs.get(schema)?.secret === true;
});

/** Merges the sources (later ones win, as wrangler layers them) and reads the result as the Worker would. */
export async function checkSettings(sources: readonly VarsSource[]): Promise<SettingsReport> {
  const vars: Record<string, unknown> = Object.assign({}, ...sources.map((source) => source.vars));
  const { refused } = readVars(vars);
  const apiKeys = vars["API_KEYS"];
  if (typeof apiKeys === "string" && apiKeys.trim() !== "") {
    const keys = await parseApiKeys(apiKeys);
    if (!keys.ok) refused.push(keys.message);
  }
  const known = new Set(SETTING_NAMES);
  return {
    refused,
    unknown: Object.keys(vars).filter((name) => !known.has(name)),
    unsetSecrets: SECRETS.filter((name) => vars[name] === undefined),
  };
}
