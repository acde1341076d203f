// The ends of the package's peer ranges (package.json peerDependencies): examples/dual-lane (both
// agents lanes on one engine) installed from the tarball with each end of the `agents` and `zod`
// ranges in place of the versions it names, type-checked with its own `wrangler types && tsc
// --noEmit`, then served by wrangler dev: the durable tool listed and called on each lane. docs/adopting.md,
// "Which agents and zod", lists the versions this tried.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { adopterConfig, installedExample, type Pins } from "./support/adopter";
import { ownServer } from "./support/dev-server";
import { run } from "./support/fresh-clone";
import { modern, resultOf } from "./support/modern";

const BIN = resolve(import.meta.dirname, "../../node_modules/.bin");
const EXAMPLE = "examples/dual-lane";

/**
 * `agents` ">=0.32.0 <0.33.0": the registry holds 0.32.0 alone in it (0.24.0 before, whose exact
 * peers @modelcontextprotocol/sdk 1.30.0 and /server 2.0.0 npm cannot resolve beside ours; nothing
 * after). `zod` "^4.2.0": 4.2.0 and the newest, 4.6.7. Below 4.2.0 zod has no Standard JSON Schema
 * (`~standard.jsonSchema`), which the SDK v2 McpServer's registerTool and the package's listing type
 * against: zod 4.1.0 served both calls, and failed `tsc` in the package and in the example's own
 * `registerTool`. Each zod end with the agents one.
 */
const ENDS: Pins[] = [
  { agents: "0.32.0", zod: "4.2.0" },
  { agents: "0.32.0", zod: "4.6.7" },
];

const textOf = (result: Record<string, unknown>): string => JSON.stringify(result["content"] ?? result);

describe.each(ENDS)("examples/dual-lane with agents $agents and zod $zod", (pins) => {
  const server = ownServer(async () => ({ config: await adopterConfig(EXAMPLE, (c) => c, pins) }));

  it("passes its own `wrangler types && tsc --noEmit`", async () => {
    const dir = await installedExample(EXAMPLE, pins);
    const installed = run(dir, "npm", ["ls", "agents", "zod", "--depth=0"]);
    await installed.exited;
    for (const [name, version] of Object.entries(pins)) expect(installed.output()).toContain(`${name}@${version}`);
    for (const [tool, args] of [
      ["wrangler", ["types"]],
      ["tsc", ["--noEmit"]],
    ] as const) {
      const command = run(dir, join(BIN, tool), [...args]);
      expect(await command.exited, `${tool} ${args.join(" ")} in ${dir}:\n${command.output()}`).toBe(0);
    }
  });

  it("lists and answers a durable call on the createMcpHandler lane (2026-07-28)", async () => {
    const listed = resultOf(await modern(server.url, "tools/list"));
    // The listing converts the tool's zod schema with zod's own Standard JSON Schema.
    expect(JSON.stringify(listed["tools"])).toContain('"seconds":{"type":"integer"');
    const reply = await modern(server.url, "tools/call", { name: "countdown", arguments: { seconds: 1 } });
    expect(textOf(resultOf(reply))).toContain("Countdown of 1 s finished.");
  });

  it("answers a durable call on the McpAgent lane (SDK v1 client, 2025-11-25)", async () => {
    const client = new Client({ name: "peer-ranges", version: "1" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp-legacy`)));
    try {
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === "countdown")?.execution).toEqual({ taskSupport: "optional" });
      const result = await client.callTool({ name: "countdown", arguments: { seconds: 1 } });
      expect(JSON.stringify(result["content"])).toContain("Countdown of 1 s finished.");
    } finally {
      await client.close();
    }
  });
});
