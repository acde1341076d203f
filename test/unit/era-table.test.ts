// The era table routes each version it lists to its row, and src/index.ts's rows list exactly the
// versions server/discover names: adding a revision is one folder and one row (docs/architecture.md).
import { describe, it } from "vitest";
import { eraTable, routeByEra, type EraAdapter } from "../../src/eras";
import { readSettings } from "../../src/config";
import type { McpRequest } from "../../src/http/mcp-endpoint";
import { mcp20251125 } from "../../src/mcp-2025-11-25";
import { mcp20260728 } from "../../src/mcp-2026-07-28";
import { SUPPORTED_VERSIONS } from "../../src/mcp-2026-07-28/protocol";

type Call = { revision: string; route: "post" | "get" | "delete"; message?: string };

/** A row with the real row's names, whose routes only record who was asked. */
function recording(real: EraAdapter, calls: Call[]): EraAdapter {
  const answer = (route: Call["route"]) => (input: McpRequest) => {
    calls.push({ revision: real.revision, route, ...(input.message && { message: input.message.method }) });
    return Promise.resolve(new Response(null, { status: 204 }));
  };
  return {
    revision: real.revision,
    versions: real.versions,
    framing: real.framing,
    post: answer("post"),
    get: answer("get"),
    delete: answer("delete"),
  };
}

function request(method: string, headers: Record<string, string>, body?: unknown): McpRequest {
  const init: RequestInit = {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  };
  const tools = { tools: [], find: () => undefined };
  return {
    request: new Request("http://x/mcp", init),
    env: {} as Env,
    settings: readSettings({}),
    principal: "p",
    baseUrl: "http://x",
    waitUntil: () => {},
    tools,
  };
}

const claimed = (version: string) => ({
  jsonrpc: "2.0",
  id: 1,
  method: "tools/list",
  params: {
    _meta: { "io.modelcontextprotocol/protocolVersion": version, "io.modelcontextprotocol/clientCapabilities": {} },
  },
});

describe("the era table", () => {
  const rows = [mcp20260728, mcp20251125];

  it("lists exactly the versions server/discover and -32022 name", ({ expect }) => {
    expect([...eraTable(rows).versions].sort()).toEqual([...SUPPORTED_VERSIONS].sort());
  });

  it("routes a request claiming each version it lists to that version's row", async ({ expect }) => {
    for (const real of rows) {
      for (const version of real.versions) {
        const calls: Call[] = [];
        const router = routeByEra(eraTable(rows.map((row) => recording(row, calls))));
        await router.post(request("POST", { "MCP-Protocol-Version": version }, claimed(version)));
        expect(calls, version).toEqual([
          { revision: real.revision, route: "post", ...(real.framing === "per-request" && { message: "tools/list" }) },
        ]);
      }
    }
  });

  it("sends initialize and claim-less requests to the session row, and GET or DELETE to the row the header names", async ({
    expect,
  }) => {
    const calls: Call[] = [];
    const router = routeByEra(eraTable(rows.map((row) => recording(row, calls))));
    await router.post(request("POST", {}, { jsonrpc: "2.0", id: 1, method: "initialize", params: {} }));
    await router.get(request("GET", { "MCP-Protocol-Version": "2026-07-28" }));
    await router.delete(request("DELETE", { "MCP-Protocol-Version": "2025-06-18" }));
    expect(calls).toEqual([
      { revision: "2025-11-25", route: "post" },
      { revision: "2026-07-28", route: "get" },
      { revision: "2025-11-25", route: "delete" },
    ]);
  });

  it("plugs in a third revision as one more row", async ({ expect }) => {
    const calls: Call[] = [];
    const next: EraAdapter = { ...mcp20260728, revision: "2027-03-01", versions: ["2027-03-01"] };
    const router = routeByEra(eraTable([...rows, next].map((row) => recording(row, calls))));
    await router.post(request("POST", { "MCP-Protocol-Version": "2027-03-01" }, claimed("2027-03-01")));
    await router.post(request("POST", {}, claimed("2099-01-01")));
    expect(calls.map((call) => call.revision)).toEqual(["2027-03-01", "2027-03-01"]);
  });

  it("refuses a table where two rows claim one version", ({ expect }) => {
    expect(() => eraTable([mcp20251125, { ...mcp20251125, revision: "2025-12-01" }])).toThrow(/served by both/);
  });
});
