/**
 * One harness for a Worker that depends on the packed package (test/support/package-tarball.ts):
 * its folder is laid out by the caller, then it installs, type-checks, bundles with
 * `wrangler deploy --dry-run`, and `wrangler dev` serves a task-augmented call to its end in both
 * eras. package-consumer.test.ts runs it on a minimal Worker of its own, template-on-package.test.ts
 * on the template cut down to the five paths docs/api.md names. The package is its build (dist/lib, its
 * bundled .d.ts): a consumer's tsc never compiles the package's TypeScript source.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, type ExpectStatic, it } from "vitest";
import { createTaskSessionFromClient, resultFromTaskOutcome } from "@modelcontextprotocol/ext-tasks/client";
import type { JsonValue } from "@modelcontextprotocol/ext-tasks/core";
import { CallToolResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { packageTarball } from "../../support/package-tarball";
import { answers, run, type Command } from "./fresh-clone";
import { connectClient } from "./mcp";
import { CLIENT_INFO, MODERN, connectV2, rawDispatch } from "./modern";
import { freePort } from "./wrangler-dev";
import * as z from "zod";

const ROOT = resolve(import.meta.dirname, "../../..");

export interface ConsumerOptions {
  /** What the suite is called. */
  title: string;
  /** Writes the consumer's files into the empty folder `dir`; its package.json names `tarball`. */
  layOut(dir: string, tarball: string): void;
  /**
   * Whose wrangler and tsc run there: the consumer's own devDependencies (as its user runs them),
   * or this checkout's (same versions) for a consumer that declares none.
   */
  toolchain: "own" | "checkout";
  /** Whether the program has @types/node (a devDependency named in the tsconfig's `types`): either way checks. */
  nodeTypes: boolean;
  /**
   * Type-checks also with tsconfig.strictest.json (the strictest common flags, skipLibCheck off),
   * tsconfig.workers-types.json (the same on @cloudflare/workers-types) and tsconfig.entries.json
   * (every entry's .d.ts), each with TypeScript 7 (the toolchain's) and TypeScript 5 (the consumer's
   * `typescript-5` devDependency).
   */
  strictest?: boolean;
  /** A tool the consumer serves, called with task augmentation in each era, and its text. */
  call: { name: string; arguments: Record<string, JsonValue>; text: string };
  /** More tests against the served consumer's URL (registered inside its `describe`). */
  served?: (url: () => string) => void;
}

/** The consumer's strictest tsconfigs (test/fixtures/consumer), each with where its runtime's types come from. */
const STRICTEST = {
  "tsconfig.strictest.json": "`wrangler types`",
  "tsconfig.workers-types.json": "@cloudflare/workers-types",
};

/** Registers the whole suite for one consumer. */
export function describeConsumer(options: ConsumerOptions): void {
  let dir = "";
  let dev: Command | undefined;
  let url = "";

  /** A command of the consumer's toolchain run in its folder, to its end. */
  async function tool(args: string[]): Promise<{ code: number | null; output: string }> {
    const prefix = options.toolchain === "checkout" ? ["--prefix", ROOT] : [];
    const command = run(dir, "npm", ["exec", ...prefix, "--", ...args]);
    const code = await command.exited;
    return { code, output: command.output() };
  }

  describe(options.title, () => {
    // An install of the consumer's devDependencies (wrangler, workerd) took 2 min on a loaded machine.
    beforeAll(async () => {
      const tarball = await packageTarball();
      dir = mkdtempSync(join(tmpdir(), "mcp-task-worker-consumer-"));
      options.layOut(dir, tarball);
      // The registry is reachable, and npm's cache holds what this checkout installed already.
      const install = run(dir, "npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"]);
      const code = await install.exited;
      if (code !== 0) throw new Error(`npm install failed in ${dir}:\n${install.output()}`);
    }, 300_000);

    afterAll(async () => {
      await dev?.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    it("installs the package from its tarball: its build, no TypeScript source, tests, benches or fixtures", ({
      expect,
    }) => {
      const installed = join(dir, "node_modules/mcp-task-worker");
      const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
      expect(manifest).toMatchObject({
        name: "mcp-task-worker",
        exports: { ".": { types: "./dist/lib/package/index.d.ts", default: "./dist/lib/package/index.js" } },
      });
      // Nothing runs at install: npm 11 warns about (and will block) a dependency's install scripts.
      for (const script of ["preinstall", "install", "postinstall", "prepare"]) {
        expect(manifest.scripts?.[script], script).toBeUndefined();
      }
      for (const absent of [
        "test",
        "bench",
        "ui",
        "docs",
        "scripts",
        "src/package",
        "src/adopt",
        "src/core",
        "src/index.ts",
      ]) {
        expect(existsSync(join(installed, absent)), absent).toBe(false);
      }
      // The only source shipped: the bundle stand-ins a consumer's wrangler `alias` names (docs/bundle.md).
      const sources = readdirSync(join(installed, "src"), { recursive: true, encoding: "utf8" });
      expect(sources.filter((file) => file.endsWith(".ts") && !file.startsWith("shims/"))).toEqual([]);
      expect(existsSync(join(installed, "dist/pages/console.html"))).toBe(true);
      expect(existsSync(join(installed, "dist/lib/package/index.js"))).toBe(true);
    });

    /** tsc's run on `tsconfig`: its program (no file of the package's source in it), then the check. */
    async function typeChecks(expect: ExpectStatic, tsc: string[], tsconfig: string): Promise<void> {
      const list = await tool([...tsc, "--noEmit", "--listFilesOnly", "-p", join(dir, tsconfig)]);
      expect(list.code, list.output).toBe(0);
      expect(list.output).toContain("node_modules/mcp-task-worker/dist/lib/package/index.d.ts");
      expect(list.output).not.toMatch(/node_modules\/mcp-task-worker\/src\//);
      expect(list.output.includes("node_modules/@types/node/"), list.output).toBe(options.nodeTypes);
      const checked = await tool([...tsc, "--noEmit", "-p", join(dir, tsconfig)]);
      expect(checked.code, `${tsc.join(" ")} -p ${tsconfig}:\n${checked.output}`).toBe(0);
    }

    it(`type-checks with tsc (strict, the package's .d.ts, ${options.nodeTypes ? "with" : "without"} @types/node)`, async ({
      expect,
    }) => {
      const types = await tool(["wrangler", "types"]);
      expect(types.code, types.output).toBe(0);
      await typeChecks(expect, ["tsc"], "tsconfig.json");
    });

    if (options.strictest) {
      const typescripts = { "TypeScript 7": ["tsc"], "TypeScript 5": ["node", "node_modules/typescript-5/bin/tsc"] };
      for (const [version, tsc] of Object.entries(typescripts)) {
        for (const [tsconfig, runtime] of Object.entries(STRICTEST)) {
          it(`type-checks with ${version}, the strictest common flags and skipLibCheck off, on ${runtime}`, async ({
            expect,
          }) => {
            // The `wrangler types` test above writes worker-configuration.d.ts, unless a filter left it out.
            if (!existsSync(join(dir, "worker-configuration.d.ts"))) {
              const types = await tool(["wrangler", "types"]);
              expect(types.code, types.output).toBe(0);
            }
            await typeChecks(expect, tsc, tsconfig);
          });
        }

        it(`${version}: every entry's .d.ts, the agents lanes' included, has no error under the strictest flags`, async ({
          expect,
        }) => {
          const checked = await tool([...tsc, "--noEmit", "-p", join(dir, "tsconfig.entries.json")]);
          // The peers' own .d.ts (agents, the SDKs) fail these flags by themselves: only ours count.
          const ours = checked.output.split("\n").filter((line) => /mcp-task-worker\/.*error TS/.test(line));
          expect(ours, checked.output).toEqual([]);
          // The program held them all (and the check ran: a missing tsconfig is an error outside the package).
          const list = await tool([...tsc, "--noEmit", "--listFilesOnly", "-p", join(dir, "tsconfig.entries.json")]);
          expect(list.code, list.output).toBe(0);
          for (const entry of ["package/index", "adopt/index", "adopt/mcp-agent-index"]) {
            expect(list.output).toContain(`node_modules/mcp-task-worker/dist/lib/${entry}.d.ts`);
          }
        });
      }
    }

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
        const prefix = options.toolchain === "checkout" ? ["--prefix", ROOT] : [];
        dev = run(dir, "npm", [
          "exec",
          ...prefix,
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

      const { name, arguments: args, text } = options.call;

      it("2025-11-25: the SDK v1 Client's experimental tasks run the tool's task to its result", async ({ expect }) => {
        const client = await connectClient(url);
        try {
          const { tools } = await client.listTools();
          expect(tools.map((t) => t.name)).toContain(name);
          const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, {
            task: { ttl: 60_000 },
          });
          const kinds: string[] = [];
          let result: unknown;
          for await (const message of stream) {
            kinds.push(message.type);
            if (message.type === "result") result = message.result;
          }
          expect(kinds[0]).toBe("taskCreated");
          expect(result).toMatchObject({ content: [{ type: "text", text }] });
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
          const execution = await tasks.callTool(name, args);
          expect(execution.kind).toBe("task");
          const { outcome } = await execution.settle();
          expect(outcome.status).toBe("completed");
          expect(resultFromTaskOutcome(outcome)).toMatchObject({ content: [{ type: "text", text }] });
        } finally {
          await tasks.close();
          await client.close();
        }
      });

      options.served?.(() => url);
    });
  });
}

const JsonObject = z.record(z.string(), z.unknown());

/** Rewrites `file` (JSON) in place with `edit`. */
export function editJson(file: string, edit: (value: Record<string, unknown>) => void): void {
  const value = JsonObject.parse(JSON.parse(readFileSync(file, "utf8")));
  edit(value);
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}
