/**
 * One harness for a Worker that depends on the packed package (test/support/package-tarball.ts):
 * its folder is laid out by the caller, then it installs, type-checks, bundles with
 * `wrangler deploy --dry-run`, and `wrangler dev` serves a task-augmented call to its end in both
 * eras. package-consumer.test.ts runs it on a minimal Worker of its own, template-on-package.test.ts
 * on the template cut down to the five paths docs/api.md names.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, it } from "vitest";
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
  /**
   * Whether the program has @types/node (a devDependency named in the tsconfig's `types`): the
   * package declares the one Node module it uses (src/jobs/async-hooks.d.ts) so either way checks.
   */
  nodeTypes: boolean;
  /** A tool the consumer serves, called with task augmentation in each era, and its text. */
  call: { name: string; arguments: Record<string, JsonValue>; text: string };
  /** More tests against the served consumer's URL (registered inside its `describe`). */
  served?: (url: () => string) => void;
}

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

    it("installs the package from its tarball, with no tests, benches or fixtures in it", ({ expect }) => {
      const installed = join(dir, "node_modules/mcp-task-worker");
      expect(JSON.parse(readFileSync(join(installed, "package.json"), "utf8"))).toMatchObject({
        name: "mcp-task-worker",
        exports: { ".": "./src/package/index.ts" },
      });
      for (const absent of ["test", "bench", "ui", "docs", "scripts", "src/tools", "src/event-types", "src/index.ts"]) {
        expect(existsSync(join(installed, absent)), absent).toBe(false);
      }
      expect(existsSync(join(installed, "dist/pages/console.html"))).toBe(true);
      expect(existsSync(join(installed, "src/jobs/async-hooks.d.ts"))).toBe(true);
    });

    it(`type-checks with tsc (strict, the package's TypeScript source included, ${options.nodeTypes ? "with" : "without"} @types/node)`, async ({
      expect,
    }) => {
      const types = await tool(["wrangler", "types"]);
      expect(types.code, types.output).toBe(0);
      const tsconfig = join(dir, "tsconfig.json");
      const check = await tool(["tsc", "--noEmit", "--listFilesOnly", "-p", tsconfig]);
      expect(check.code, check.output).toBe(0);
      // The program is the one described: the package's declaration of node:async_hooks is in it,
      // and Node's own types are in it exactly when the consumer has them.
      expect(check.output).toContain("node_modules/mcp-task-worker/src/jobs/async-hooks.d.ts");
      expect(check.output.includes("node_modules/@types/node/"), check.output).toBe(options.nodeTypes);
      const checked = await tool(["tsc", "--noEmit", "-p", tsconfig]);
      expect(checked.code, checked.output).toBe(0);
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
