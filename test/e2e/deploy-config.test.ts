/**
 * What the Deploy to Cloudflare button and `wrangler deploy` read (docs/deploying.md): every secret in
 * .dev.vars.example is described in package.json `cloudflare.bindings`, the one the button asks for
 * fails closed with its placeholder, every queue is provisionable (it has a producer), and a
 * newcomer's Node is judged at the install (package.json devEngines). Plain Node tests, beside
 * the e2e suite for its Node types.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { unstable_readConfig } from "wrangler";
import { describe, it } from "vitest";
import { parseApiKeys } from "../../src/http/api-keys";
import { isDeadLetterQueue } from "../../src/queues/routing";

const ROOT = resolve(import.meta.dirname, "../..");
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");
const pkg = JSON.parse(read("package.json")) as {
  engines: { node: string };
  devEngines: unknown;
  scripts: Record<string, string>;
  cloudflare: { bindings: Record<string, { description: string }> };
};

/** NAME=value lines of .dev.vars.example; `asked` when not commented out (the button asks for those). */
const exampleVars = read(".dev.vars.example")
  .split("\n")
  .map((line) => /^(#\s*)?([A-Z][A-Z0-9_]*)=(\S*)$/.exec(line))
  .filter((match): match is RegExpExecArray => match !== null)
  .map((match) => ({ name: match[2] ?? "", value: match[3] ?? "", asked: match[1] === undefined }));

describe(".dev.vars.example and cloudflare.bindings", () => {
  it("describes every secret the example names", ({ expect }) => {
    expect(exampleVars.map((v) => v.name).sort()).toEqual(["API_KEYS", "GITHUB_CLIENT_SECRET", "WEBHOOK_SECRET"]);
    for (const { name } of exampleVars) expect(pkg.cloudflare.bindings[name]?.description, name).toMatch(/^.{20,}$/);
  });

  it("asks only for API_KEYS, whose placeholder no server accepts (it fails closed until replaced)", async ({
    expect,
  }) => {
    const asked = exampleVars.filter((v) => v.asked);
    expect(asked.map((v) => v.name)).toEqual(["API_KEYS"]);
    expect((await parseApiKeys(asked[0]?.value ?? "")).ok).toBe(false);
  });
});

/** The parts of wrangler's resolved config these tests read. */
interface DeployConfig {
  queues: { producers?: { queue: string }[]; consumers?: { queue: string; dead_letter_queue?: string }[] };
  kv_namespaces: { binding: string; id?: string }[];
  build: { command?: string };
  dev: { ip?: string; port?: number };
  assets?: { directory?: string };
}

describe("wrangler.toml for wrangler deploy", () => {
  const config: DeployConfig = unstable_readConfig({ config: join(ROOT, "wrangler.toml") });

  it("gives every queue a producer, so wrangler deploy creates the ones an account lacks", ({ expect }) => {
    const produced = new Set(config.queues.producers?.map((p) => p.queue));
    const needed = (config.queues.consumers ?? []).flatMap((c) => [
      c.queue,
      ...(c.dead_letter_queue ? [c.dead_letter_queue] : []),
    ]);
    expect(needed.filter((queue) => !produced.has(queue))).toEqual([]);
  });

  it("ends every dead-letter queue's name, and no other queue's, in -dlq: the one thing the Worker reads in a name", ({
    expect,
  }) => {
    const consumers = config.queues.consumers ?? [];
    const deadLetters = new Set(consumers.flatMap((c) => (c.dead_letter_queue ? [c.dead_letter_queue] : [])));
    expect(deadLetters.size).toBe(3);
    for (const { queue } of consumers) expect(isDeadLetterQueue(queue), queue).toBe(deadLetters.has(queue));
  });

  it("leaves the KV namespace's id out, so wrangler deploy provisions it", ({ expect }) => {
    expect(config.kv_namespaces.map((kv) => [kv.binding, kv.id])).toEqual([["OAUTH_KV", undefined]]);
  });

  it("builds the pages in wrangler's [build] step and holds the dev address in [dev]", ({ expect }) => {
    expect(config.build.command).toBe("node scripts/build-ui.mjs");
    expect(config.dev).toMatchObject({ ip: "127.0.0.1", port: 8787 });
  });

  it("has no [assets]: the pages are text modules of the script, and no asset router stands in front of every request (docs/plain-path.md)", ({
    expect,
  }) => {
    expect(config.assets).toBeUndefined();
  });
});

describe("the Node check (devEngines), and nothing run at install", () => {
  it("npm stops a clone's install and scripts on a Node older than anything tried (devEngines)", ({ expect }) => {
    // Read on the project's own install and `npm run` only, never when the package is a dependency.
    expect(pkg.devEngines).toEqual({ runtime: { name: "node", version: ">=18.0.0", onFail: "error" } });
  });

  it("names wrangler's floor in engines (npm's EBADENGINE warning at install) and .nvmrc", ({ expect }) => {
    // A warning, not a stop: npm scripts run on the Node 22 the `node` devDependency brings (docs/local-dev.md).
    expect(pkg.engines.node).toBe(">=22.12.0");
    expect(read(".nvmrc").trim()).toBe("22");
  });

  it("has no install-time script, which npm 11 warns about in a consumer's install", ({ expect }) => {
    for (const script of ["preinstall", "install", "postinstall", "prepare"]) {
      expect(pkg.scripts[script], script).toBeUndefined();
    }
  });
});

describe.each(["create-mcp-handler", "mcp-agent", "dual-lane", "sdk-v1-handler"])(
  "examples/%s/wrangler.jsonc for wrangler deploy",
  (example) => {
    const config: DeployConfig = unstable_readConfig({ config: join(ROOT, "examples", example, "wrangler.jsonc") });
    const consumers = config.queues.consumers ?? [];

    it("consumes its jobs' dead-letter queue, so a job whose hand-over ran out of retries fails its task", ({
      expect,
    }) => {
      const deadLetters = consumers.flatMap((c) => (c.dead_letter_queue ? [c.dead_letter_queue] : []));
      expect(deadLetters).toHaveLength(1);
      expect(consumers.map((c) => c.queue)).toEqual(expect.arrayContaining(deadLetters));
      for (const { queue } of consumers) expect(isDeadLetterQueue(queue), queue).toBe(deadLetters.includes(queue));
    });

    it("gives every queue a producer, so wrangler deploy creates the ones an account lacks", ({ expect }) => {
      const produced = new Set(config.queues.producers?.map((p) => p.queue));
      expect(consumers.map((c) => c.queue).filter((queue) => !produced.has(queue))).toEqual([]);
    });
  },
);
