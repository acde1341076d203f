// The zod/v4 stand-in's `z` (src/shims/zod-v4/index.ts) is a plain object of builders, not zod's
// namespace, so a bundle that aliases "zod/v4" keeps no classic zod it never calls. It must hold every
// builder the packages that `import { z } from "zod/v4"` call, or their schemas throw at load.
import { readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { z, Z_BUILDERS } from "../../src/shims/zod-v4";

const NODE_MODULES = resolve(import.meta.dirname, "../../node_modules");

/** Every `z.<member>` a package's JavaScript reads, in the files that import `{ z }` from "zod/v4". */
function membersRead(packageDir: string): Set<string> {
  const members = new Set<string>();
  for (const entry of readdirSync(packageDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.m?js$/.test(entry.name)) continue;
    const text = readFileSync(join(entry.parentPath, entry.name), "utf8");
    if (!/import\s*\{[^}]*\bz\b[^}]*\}\s*from\s*["']zod\/v4["']/.test(text)) continue;
    for (const [, member] of text.matchAll(/\bz\.([A-Za-z_$][\w$]*)/g)) if (member) members.add(member);
  }
  return members;
}

describe("the zod/v4 stand-in's z", () => {
  it("holds every builder @modelcontextprotocol/ext-tasks calls on it", () => {
    const read = membersRead(join(NODE_MODULES, "@modelcontextprotocol/ext-tasks/dist"));
    expect(read.size).toBeGreaterThan(0);
    expect([...read].filter((member) => !(member in Z_BUILDERS))).toEqual([]);
  });

  it("builds schemas that parse as zod's do", () => {
    const schema = z.object({ taskId: z.string(), status: z.enum(["working", "completed"]), n: z.int() });
    expect(schema.parse({ taskId: "t", status: "working", n: 1 })).toEqual({ taskId: "t", status: "working", n: 1 });
    expect(schema.safeParse({ taskId: 1 }).success).toBe(false);
  });

  it("names the file to change when a builder it lacks is read", () => {
    expect(() => Reflect.get(z, "bigint")).toThrow(/z\.bigint .*src\/shims\/zod-v4\/index\.ts/);
  });
});
