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

async function runScenario(scenario: string): Promise<Check[]> {
  const dir = join(outDir, scenario);
  // The suite exits non-zero on failures; the checks file says which, so read it either way.
  await run(process.execPath, [CLI, "server", "--url", `${server.url}/mcp`, "--scenario", scenario, "-o", dir], { timeout: 60_000 }).catch((error: unknown) => error);
  const [results] = readdirSync(dir);
  if (!results) throw new Error(`conformance wrote no results for ${scenario}`);
  return JSON.parse(readFileSync(join(dir, results, "checks.json"), "utf8")) as Check[];
}

describe("MCP conformance suite, server scenarios", () => {
  for (const scenario of SCENARIOS) {
    it(`passes ${scenario}`, async ({ expect }) => {
      const checks = await runScenario(scenario);
      const failures = checks.filter((c) => c.status === "FAILURE").map((c) => `${c.id}: ${c.errorMessage ?? ""}`);
      expect(failures).toEqual([]);
      expect(checks.some((c) => c.status === "SUCCESS")).toBe(true);
    });
  }
});
