// The public MCP conformance suite (@modelcontextprotocol/conformance, Node 22) against a real
// `wrangler dev`: the server scenarios that apply to any server must pass without failures.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, it } from "vitest";
import { startDevServer, type DevServer } from "./support/wrangler-dev";

const run = promisify(execFile);
const CLI = resolve(import.meta.dirname, "../../node_modules/@modelcontextprotocol/conformance/dist/index.js");
const SCENARIOS = ["server-initialize", "ping", "tools-list", "server-sse-multiple-streams", "dns-rebinding-protection"];

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

let server: DevServer;
let outDir: string;

beforeAll(async () => {
  server = await startDevServer();
  outDir = mkdtempSync(join(tmpdir(), "conformance-"));
});

afterAll(async () => {
  await server?.stop();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

const exitCodeOf = (error: unknown): number => (typeof error === "object" && error !== null && "code" in error && typeof error.code === "number" ? error.code : -1);

/** Runs one scenario: the CLI's exit code, and its checks file (read either way, to say which checks failed). */
async function runScenario(scenario: string): Promise<{ exitCode: number; checks: Check[] }> {
  const dir = join(outDir, scenario);
  const exitCode = await run(process.execPath, [CLI, "server", "--url", `${server.url}/mcp`, "--scenario", scenario, "-o", dir], { timeout: 60_000 }).then(() => 0, exitCodeOf);
  const [results] = readdirSync(dir);
  if (!results) throw new Error(`conformance wrote no results for ${scenario} (exit code ${exitCode})`);
  return { exitCode, checks: JSON.parse(readFileSync(join(dir, results, "checks.json"), "utf8")) as Check[] };
}

describe("MCP conformance suite, server scenarios", () => {
  for (const scenario of SCENARIOS) {
    it(`passes ${scenario}`, async ({ expect }) => {
      const { exitCode, checks } = await runScenario(scenario);
      const failures = checks.filter((c) => c.status === "FAILURE").map((c) => `${c.id}: ${c.errorMessage ?? ""}`);
      expect(failures).toEqual([]);
      expect(checks.some((c) => c.status === "SUCCESS")).toBe(true);
      expect(exitCode, "the conformance CLI's exit code").toBe(0);
    });
  }
});
