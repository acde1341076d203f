// The public MCP conformance suite (@modelcontextprotocol/conformance, Node 22) against a real
// `wrangler dev`: the server scenarios that apply to any server, at 2025-11-25 and at 2026-07-28
// (with the Tasks extension's scenarios), must pass without failures. Some checks need fixture tools
// a template cannot ship (`greet`, `slow_compute`, `test_missing_capability`, ...) and report that
// they could not run; those, and only those, are tolerated, each kind named below.
import { execFile } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, it } from "vitest";
import { sharedServer } from "./support/dev-server";

const run = promisify(execFile);
const CLI = resolve(import.meta.dirname, "../../node_modules/@modelcontextprotocol/conformance/dist/index.js");
const SCENARIOS_2025 = [
  "server-initialize",
  "ping",
  "tools-list",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
];
const SCENARIOS_2026 = [
  "server-stateless",
  "tools-list",
  "caching",
  "http-header-validation",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
  "sep-2164-resource-not-found",
];
/** Extension scenarios: not on the spec timeline, so they run without a --spec-version. */
const TASKS_SCENARIOS = [
  "tasks-lifecycle",
  "tasks-capability-negotiation",
  "tasks-wire-fields",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-required-task-error",
  "tasks-request-state-removal",
];

/** Checks that could not run here, by why: the suite's fixture tools, or an assumption about them. */
const UNTESTABLE: { why: string; matches: (check: Check) => boolean }[] = [
  {
    why: "a fixture tool this server does not ship",
    matches: (c) =>
      /Unknown tool "(greet|slow_compute|failing_job|protocol_error_job)"|Not testable|fixture .* unavailable|failing_job returned error code -32602/.test(
        c.errorMessage ?? "",
      ),
  },
  // prompts/list is -32601 here because the server advertises no prompts (spec: MethodNotFoundError).
  {
    why: "this server has no prompts",
    matches: (c) => c.id === "sep-2549-prompts-list-caching-hints" && /-32601/.test(c.errorMessage ?? ""),
  },
  // It calls the first listed tool with empty arguments; every tool here requires arguments. The
  // whitespace rule itself is covered by mcp-2026-protocol.test.ts.
  {
    why: "the first tool takes no arguments",
    matches: (c) =>
      c.id === "sep-2243-server-accepts-whitespace-header-value" &&
      /Invalid arguments for tool/.test(c.errorMessage ?? ""),
  },
];

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

const server = sharedServer();
let outDir: string;

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "conformance-"));
});

afterAll(async () => {
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

const exitCodeOf = (error: unknown): number =>
  typeof error === "object" && error !== null && "code" in error && typeof error.code === "number" ? error.code : -1;

/** Runs one scenario: the CLI's exit code, and its checks file (read either way, to say which checks failed). */
async function runScenario(
  scenario: string,
  specVersion: string | undefined,
  signal: AbortSignal,
): Promise<{ exitCode: number; checks: Check[] }> {
  const dir = join(outDir, `${scenario}-${specVersion ?? "extension"}`);
  const args = [
    CLI,
    "server",
    "--url",
    `${server.url}/mcp`,
    "--scenario",
    scenario,
    "-o",
    dir,
    ...(specVersion ? ["--spec-version", specVersion] : []),
  ];
  // No wall-clock kill of its own (a 60 s one killed a CPU-starved CLI under load before it wrote
  // results): the CLI times out each scenario on a silent server, and the test's timeout aborts it.
  const exitCode = await run(process.execPath, args, { signal }).then(() => 0, exitCodeOf);
  const [results] = readdirSync(dir);
  if (!results) throw new Error(`conformance wrote no results for ${scenario} (exit code ${exitCode})`);
  return { exitCode, checks: JSON.parse(readFileSync(join(dir, results, "checks.json"), "utf8")) as Check[] };
}

function describeScenarios(title: string, scenarios: string[], specVersion?: string) {
  describe(title, () => {
    for (const scenario of scenarios) {
      it(`passes ${scenario}`, async ({ expect, signal }) => {
        const { exitCode, checks } = await runScenario(scenario, specVersion, signal);
        const failed = checks.filter((c) => c.status === "FAILURE");
        const failures = failed
          .filter((c) => !UNTESTABLE.some((u) => u.matches(c)))
          .map((c) => `${c.id}: ${c.errorMessage ?? ""}`);
        expect(failures).toEqual([]);
        expect(checks.some((c) => c.status === "SUCCESS")).toBe(true);
        // The CLI exits non-zero on any failure, tolerated ones included.
        if (failed.length === 0) expect(exitCode, "the conformance CLI's exit code").toBe(0);
      });
    }
  });
}

describeScenarios("MCP conformance suite, server scenarios at 2025-11-25", SCENARIOS_2025, "2025-11-25");
describeScenarios("MCP conformance suite, server scenarios at 2026-07-28", SCENARIOS_2026, "2026-07-28");
describeScenarios("MCP conformance suite, Tasks extension scenarios", TASKS_SCENARIOS);
