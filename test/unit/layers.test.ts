/// <reference types="vitest/importMeta" />
// The import rules of docs/architecture.md ("Layers"), as written in .dependency-cruiser.cjs:
// src/ keeps them, and each kind of rule fails, by name, on a small tree that breaks it
// (test/unit/layer-fixtures/<case>/src, cruised from <case> as if it were the project).
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
    const path = violation.cycle ? [violation.from, ...violation.cycle.map((step) => step.name)] : [violation.from, violation.to];
    return `${violation.rule.name}: ${path.join(" → ")} (${comments.get(violation.rule.name) ?? ""})`;
  });
}

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
    expect(await violationsIn("leases")).toEqual(["leases-imports-nothing-else: src/leases/lease-client.ts → src/shims/clock.ts"]);
  });

  it("the core importing the MCP SDK or hono", async () => {
    expect(await violationsIn("core-packages")).toEqual([
      "core-no-http: src/core/b.ts → node_modules/hono",
      "core-no-mcp-sdk: src/core/a.ts → node_modules/@modelcontextprotocol/sdk",
    ]);
  });
});
