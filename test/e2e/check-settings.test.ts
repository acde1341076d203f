/**
 * `npm run check-settings` (scripts/check-settings/): a wrangler config and its vars read as the
 * Worker reads them, without serving. Values release 0.1 read silently, and 0.2 refuses with
 * `503 settings_invalid`, are named; the template's own config passes. Plain Node tests, beside the
 * e2e suite for its Node types (no server).
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { describe, it } from "vitest";
import { checkSettings } from "../../scripts/check-settings/check.ts";
import { cliVars, configVars, devVars } from "../../scripts/check-settings/sources.ts";

const ROOT = resolve(import.meta.dirname, "../..");

/** A wrangler.toml of its own in a fresh folder, with `vars` as its [vars] and an [env.production] of `production`. */
function configWith(vars: string, production = ""): string {
  const dir = mkdtempSync(join(tmpdir(), "check-settings-"));
  const path = join(dir, "wrangler.toml");
  const body = `name = "check"\nmain = "src/index.ts"\ncompatibility_date = "2026-04-20"\n\n[vars]\n${vars}\n`;
  writeFileSync(path, production === "" ? body : `${body}\n[env.production.vars]\n${production}\n`);
  return path;
}

describe("npm run check-settings", () => {
  it("accepts the template's own wrangler.toml, and names the secrets it could not see", async ({ expect }) => {
    const report = await checkSettings([configVars(join(ROOT, "wrangler.toml"))]);
    expect(report).toEqual({
      refused: [],
      unknown: [],
      unsetSecrets: ["API_KEYS", "CALLER_KEY", "CALLER_KEY_PREVIOUS", "GITHUB_CLIENT_SECRET", "WEBHOOK_SECRET"],
    });
  });

  it("refuses the values 0.1 read silently, each named as the 503 names it", async ({ expect }) => {
    const path = configWith(
      ['PARTIAL_MAX_PIECES = "5000"', 'AUTH_MODE = "oauht"', 'ALLOW_ANONYMOUS = "y"', 'LEASE_MSS = "3000"'].join("\n"),
    );
    const report = await checkSettings([configVars(path)]);
    expect(report.refused).toEqual([
      'PARTIAL_MAX_PIECES is "5000", but must be a whole number from 1 to 1000',
      'AUTH_MODE is "oauht", but must be `apikeys` or `oauth`',
      'ALLOW_ANONYMOUS is "y", but must be `true`, `1`, `yes`, `on`; or `false`, `0`, `no`, `off`',
    ]);
    expect(report.unknown).toEqual(["LEASE_MSS"]);
  });

  it("layers .dev.vars and --var over [vars] as wrangler does, and reads the API_KEYS list", async ({ expect }) => {
    const path = configWith('RUN_SLICE_MS = "1200000"');
    // .dev.vars.example's placeholder is no key list; a --var overrides the config's refused value.
    const placeholder = await checkSettings([configVars(path), devVars(join(ROOT, ".dev.vars.example"))]);
    expect(placeholder.refused).toEqual([
      'RUN_SLICE_MS is "1200000", but must be a whole number from 1000 to 900000',
      'API_KEYS entry 1 is not "name:token" (name: letters, digits, . _ @ + -, up to 64).',
    ]);
    const fixed = await checkSettings([configVars(path), cliVars(["RUN_SLICE_MS:900000", "API_KEYS:alice:a1,bob:b2"])]);
    expect(fixed.refused).toEqual([]);
  });

  it("reads one environment's vars with --env", async ({ expect }) => {
    const path = configWith('AUTH_MODE = "apikeys"', 'AUTH_MODE = "oauht"');
    expect((await checkSettings([configVars(path)])).refused).toEqual([]);
    expect((await checkSettings([configVars(path, "production")])).refused).toHaveLength(1);
  });

  it("exits 1 and says why from the command line, 0 when every setting is accepted", ({ expect }) => {
    const run = (...args: string[]) =>
      spawnSync("npm", ["run", "--silent", "check-settings", "--", ...args], { cwd: ROOT, encoding: "utf8" });
    const refused = run("--config", configWith('JOB_RETRY_BASE_SECONDS = "7200"'));
    expect(refused.status).toBe(1);
    expect(refused.stdout).toMatch(/Refused: .*\n {2}- JOB_RETRY_BASE_SECONDS is "7200", but must be/);
    // A CALLER_KEY made with -hex instead of -base64: named, its value never repeated.
    const hexKey = "ab".repeat(32);
    const badKey = run("--var", `CALLER_KEY:${hexKey}`);
    expect(badKey.status).toBe(1);
    expect(badKey.stdout).toContain("- CALLER_KEY is set to a value, but must be 32 random bytes in base64");
    expect(badKey.stdout).not.toContain(hexKey);
    const accepted = run("--var", "API_KEYS:alice:a1,bob:b2");
    expect({ status: accepted.status, stderr: accepted.stderr }).toEqual({ status: 0, stderr: "" });
    expect(accepted.stdout).toMatch(/Every setting is accepted\./);
  });
});
