/**
 * `npm run check-settings`: checks a wrangler config and its vars against this package's rules
 * without serving, and exits 1 if the server would refuse them (every request but /health answered
 * `503 settings_invalid`). For CI and before a deploy or an upgrade (docs/deploying.md, "Upgrading").
 *
 *   npm run check-settings                                   # ./wrangler.toml's [vars]
 *   npm run check-settings -- --config path/wrangler.jsonc --env production
 *   npm run check-settings -- --dev-vars .dev.vars           # what wrangler dev adds
 *   npm run check-settings -- --var API_KEYS:alice:tokA,bob:tokB
 *
 * Run through package.json, which loads scripts/extensionless-ts.mjs so Node can read src/.
 */
import { parseArgs } from "node:util";
import { checkSettings } from "./check-settings/check.ts";
import { cliVars, configVars, devVars, type VarsSource } from "./check-settings/sources.ts";

const { values } = parseArgs({
  options: {
    config: { type: "string", short: "c" },
    env: { type: "string", short: "e" },
    "dev-vars": { type: "string" },
    var: { type: "string", multiple: true },
  },
});

const sources: VarsSource[] = [configVars(values.config, values.env)];
if (values["dev-vars"] !== undefined) sources.push(devVars(values["dev-vars"]));
if (values.var !== undefined) sources.push(cliVars(values.var));

const report = await checkSettings(sources);
const counted = sources.map((source) => `${source.label} (${Object.keys(source.vars).length})`);
console.log(`Checked ${counted.join(", ")}.`);
if (report.unknown.length > 0)
  console.log(
    `Not settings of mcp-task-worker (ignored by it; your tools may read them): ${report.unknown.join(", ")}.`,
  );
if (report.unsetSecrets.length > 0)
  console.log(
    `Not set here, so not checked: ${report.unsetSecrets.join(", ")} (secrets put with wrangler cannot be read back: pass one with --var NAME:value).`,
  );
if (report.refused.length === 0) {
  console.log("Every setting is accepted.");
} else {
  console.log("Refused: a server with these settings answers 503 to every request but /health until they are fixed:");
  for (const line of report.refused) console.log(`  - ${line}`);
  process.exitCode = 1;
}
