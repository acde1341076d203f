/**
 * The package as a stranger installs it: `npm pack` of this checkout (test/support/package-tarball.ts)
 * into a fresh folder holding only a minimal Worker of its own (test/fixtures/consumer: package.json,
 * wrangler.toml with the bindings docs/api.md lists, src/index.ts with one tool). It installs,
 * type-checks, bundles with `wrangler deploy --dry-run`, and `wrangler dev` serves a task-augmented
 * call to its end in both eras (issue 42: the template's engine, published).
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { packageTarball } from "../support/package-tarball";
import { answers, run, type Command } from "./support/fresh-clone";
import { connectClient } from "./support/mcp";
import { CLIENT_INFO, MODERN, connectV2, rawDispatch } from "./support/modern";
import { freePort } from "./support/wrangler-dev";

const ROOT = resolve(import.meta.dirname, "../..");
const FIXTURE = join(ROOT, "test/fixtures/consumer");

let dir = "";
let dev: Command | undefined;
let url = "";

/** A command of this checkout's toolchain (wrangler, tsc) run in the consumer's folder, to its end. */
async function tool(args: string[]): Promise<{ code: number | null; output: string }> {
  const command = run(dir, "npm", ["exec", "--prefix", ROOT, "--", ...args]);
  const code = await command.exited;
  return { code, output: command.output() };
}

beforeAll(async () => {
  const tarball = await packageTarball();
  dir = mkdtempSync(join(tmpdir(), "mcp-task-worker-consumer-"));
  cpSync(FIXTURE, dir, { recursive: true });
  const manifest = join(dir, "package.json");
  writeFileSync(manifest, readFileSync(manifest, "utf8").replace("PACKAGE_TARBALL", tarball));
  // The registry is reachable, and npm's cache holds what this checkout installed already.
  const install = run(dir, "npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"]);
  const code = await install.exited;
  if (code !== 0) throw new Error(`npm install failed in ${dir}:\n${install.output()}`);
});

afterAll(async () => {
  await dev?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("a Worker built on the packed package", () => {
  it("installs the package from its tarball, with no tests, benches or fixtures in it", ({ expect }) => {
    const installed = join(dir, "node_modules/mcp-task-worker");
    expect(JSON.parse(readFileSync(join(installed, "package.json"), "utf8"))).toMatchObject({
      name: "mcp-task-worker",
      exports: { ".": "./src/package/index.ts" },
    });
    for (const absent of ["test", "bench", "ui", "docs", "scripts", "src/tools", "src/index.ts"]) {
      expect(existsSync(join(installed, absent)), absent).toBe(false);
    }
    expect(existsSync(join(installed, "dist/pages/console.html"))).toBe(true);
  });

  it("type-checks with tsc (strict, the package's TypeScript source included)", async ({ expect }) => {
    const types = await tool(["wrangler", "types"]);
    expect(types.code, types.output).toBe(0);
    const check = await tool(["tsc", "--noEmit", "-p", join(dir, "tsconfig.json")]);
    expect(check.code, check.output).toBe(0);
  });

  it("bundles with `wrangler deploy --dry-run`", async ({ expect }) => {
    const out = join(dir, ".out");
    const deploy = await tool(["wrangler", "deploy", "--dry-run", "--outdir", out]);
    expect(deploy.code, deploy.output).toBe(0);
    expect(deploy.output).toMatch(/Total Upload: [\d.]+ KiB \/ gzip: [\d.]+ KiB/);
    expect(existsSync(join(out, "index.js"))).toBe(true);
  });

  describe("served by `wrangler dev`", () => {
    beforeAll(async () => {
      const port = await freePort();
      const inspector = await freePort();
      dev = run(dir, "npm", [
        "exec",
        "--prefix",
        ROOT,
        "--",
        "wrangler",
        "dev",
        "--ip",
        "127.0.0.1",
        "--port",
        String(port),
        "--inspector-port",
        String(inspector),
      ]);
      url = `http://127.0.0.1:${port}`;
      await answers(`${url}/health`, dev);
    });

    it("2025-11-25: the SDK v1 Client's experimental tasks run the tool's task to its result", async ({ expect }) => {
      const client = await connectClient(url);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((t) => t.name)).toContain("countdown");
        const stream = client.experimental.tasks.callToolStream(
          { name: "countdown", arguments: { seconds: 2 } },
          CallToolResultSchema,
          { task: { ttl: 60_000 } },
        );
        const kinds: string[] = [];
        let result: unknown;
        for await (const message of stream) {
          kinds.push(message.type);
          if (message.type === "result") result = message.result;
        }
        expect(kinds[0]).toBe("taskCreated");
        expect(result).toMatchObject({ content: [{ type: "text", text: "Countdown of 2 s finished." }] });
      } finally {
        await client.close();
      }
    });

    it("2026-07-28: the ext-tasks requester over the SDK v2 Client runs the tool's task to its result", async ({
      expect,
    }) => {
      const client = await connectV2(url, { pin: MODERN });
      const tasks = await createTaskSessionFromClient(client, {
        endpointId: "consumer-2026",
        rawDispatch: rawDispatch(url),
        v2RequestFraming: { protocolVersion: MODERN, clientInfo: CLIENT_INFO, clientCapabilities: {} },
      });
      try {
        const execution = await tasks.callTool("countdown", { seconds: 2 });
        expect(execution.kind).toBe("task");
        const { outcome } = await execution.settle();
        expect(outcome.status).toBe("completed");
        expect(resultFromTaskOutcome(outcome)).toMatchObject({
          content: [{ type: "text", text: "Countdown of 2 s finished." }],
        });
      } finally {
        await tasks.close();
        await client.close();
      }
    });
  });
});
