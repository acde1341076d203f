/// <reference types="vitest/importMeta" />
// The import rules of docs/architecture.md ("Layers"), as written in .dependency-cruiser.cjs:
// src/ keeps them, and each kind of rule fails, by name, on a small tree that breaks it
// (test/unit/layer-fixtures/<case>/src, cruised from <case> as if it were the project).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cruise, type ICruiseOptions } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import { describe, expect, it } from "vitest";

const CONFIG = "./.dependency-cruiser.cjs";
const options: ICruiseOptions = await extractDepcruiseOptions(CONFIG);

/** Each violation as one line: the rule's name, the import (or the circle), and what the rule says. */
async function violations(baseDir?: string): Promise<string[]> {
  const { output } = await cruise(["src"], { ...options, ...(baseDir && { baseDir }) });
  if (typeof output === "string") throw new Error(`dependency-cruiser answered text, not a result: ${output}`);
  const comments = new Map((output.summary.ruleSetUsed?.forbidden ?? []).map((rule) => [rule.name, rule.comment]));
  return output.summary.violations.map((violation) => {
    const path = violation.cycle
      ? [violation.from, ...violation.cycle.map((step) => step.name)]
      : [violation.from, violation.to];
    return `${violation.rule.name}: ${path.join(" → ")} (${comments.get(violation.rule.name) ?? ""})`;
  });
}

/** The Env members `wrangler types` made Queues (worker-configuration.d.ts): JOBS, STEPS, … */
const QUEUE_BINDINGS = [
  ...readFileSync("worker-configuration.d.ts", "utf8").matchAll(/^\s*([A-Z][A-Z0-9_]*): Queue\b/gm),
].map((m) => m[1] ?? "");
/** A Queue binding named (`env.JOBS`, `Pick<Env, "STEPS">`) or a Queue type written out. */
const QUEUE_USE = new RegExp(
  `[."'](${QUEUE_BINDINGS.join("|")})\\b|\\b(Queue|MessageSendRequest|MessageBatch)\\b(?!\\w)`,
);

/**
 * core-no-queue-binding, the half an import rule cannot see: bindings are ambient types (Env), so
 * each file of `<root>/src/core` is read, comments left out, for a Queue binding's use.
 */
function queueBindingUses(root = "."): string[] {
  const dir = join(root, "src/core");
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts"))
    .flatMap((file) => {
      const code = readFileSync(join(dir, file), "utf8").replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, "");
      const use = QUEUE_USE.exec(code);
      return use ? [`core-no-queue-binding: src/core/${file} uses ${use[0].replace(/^[."']/, "")}`] : [];
    });
}

it("src/core uses no Queue binding: it sends through its queue port (src/core/queue-port.ts)", () => {
  expect(QUEUE_BINDINGS).toContain("JOBS");
  expect(queueBindingUses(), "rule core-no-queue-binding in .dependency-cruiser.cjs").toEqual([]);
});

it("src/ keeps every layer rule (a failure names the rule, the import, and what to do instead)", async () => {
  expect(await violations(), `${CONFIG} rules broken, see docs/architecture.md "Layers"`).toEqual([]);
});

describe("each kind of rule fails on code that breaks it", () => {
  /** The fixture's violations without the rules' comments, a package named by its folder only. */
  const violationsIn = async (fixture: string): Promise<string[]> =>
    (await violations(new URL(`layer-fixtures/${fixture}`, import.meta.url).pathname)).map((line) =>
      line.slice(0, line.indexOf(" (")).replace(/(\.\.\/)*node_modules\/((@[^/]+\/)?[^/]+)\/\S*/, "node_modules/$2"),
    );

  it("an upward import", async () => {
    expect(await violationsIn("upward")).toEqual(["layers-core: src/core/gateway.ts → src/http/app.ts"]);
  });

  it("a folder missing from the list of layers", async () => {
    expect(await violationsIn("unlisted")).toEqual(["layers-unlisted: src/extras/extra.ts → src/core/index.ts"]);
  });

  it("an import past the core's face (src/core/index.ts) into one of its wings", async () => {
    expect(await violationsIn("face")).toEqual(["core-through-its-face: src/protocol/tool.ts → src/core/model/ids.ts"]);
  });

  it("a circle made of type-only imports", async () => {
    expect(await violationsIn("circle")).toEqual(["no-circular: src/jobs/a.ts → src/jobs/b.ts → src/jobs/a.ts"]);
  });

  it("src/streams importing another folder, even a leaf below it (src/json.ts aside)", async () => {
    expect(await violationsIn("streams")).toEqual(["streams-imports-nothing-else: src/streams/sse.ts → src/config.ts"]);
  });

  it("src/leases importing anything else, even a layer below it", async () => {
    expect(await violationsIn("leases")).toEqual([
      "leases-imports-nothing-else: src/leases/lease-client.ts → src/shims/clock.ts",
    ]);
  });

  it("the core using a Queue binding, or importing src/queues where they are", async () => {
    const fixture = new URL("layer-fixtures/queue-binding", import.meta.url).pathname;
    expect(await violationsIn("queue-binding")).toEqual([
      "core-no-queue-binding: src/core/outbox.ts → src/queues/routing.ts",
      "layers-core: src/core/outbox.ts → src/queues/routing.ts",
    ]);
    expect(queueBindingUses(fixture)).toEqual(["core-no-queue-binding: src/core/outbox.ts uses STEPS"]);
  });

  it("the engine importing the template (the tool registry, src/tools)", async () => {
    expect(await violationsIn("registry")).toEqual([
      "engine-not-to-template: src/protocol/call-tool.ts → src/tools/registry.ts",
      "layers-protocol: src/protocol/call-tool.ts → src/tools/registry.ts",
    ]);
  });

  it("the template reaching past the package's face, or reaching the face by a path instead of its name", async () => {
    expect(await violationsIn("template")).toEqual([
      "template-imports-the-package-by-name: src/tools/by-path.ts → src/package/index.ts",
      "template-through-the-package: src/tools/past-the-face.ts → src/jobs/context.ts",
    ]);
  });

  it("the core importing the MCP SDK or hono", async () => {
    expect(await violationsIn("core-packages")).toEqual([
      "core-no-http: src/core/b.ts → node_modules/hono",
      "core-no-mcp-sdk: src/core/a.ts → node_modules/@modelcontextprotocol/sdk",
    ]);
  });
});
