/**
 * The A/B bench's variants (bench/ab/variants.ts) still apply to the sources: each one's changes
 * find the text they replace (a variant whose text moved throws when written), and a variant that
 * patches the package's face is bundled with it in place of src/package. Writing them needs no server.
 */
import { existsSync, readFileSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { describe, it } from "vitest";
import { VARIANTS, writeVariant } from "../../bench/ab/variants.ts";

const ROOT = resolve(import.meta.dirname, "../..");

describe("bench/ab variants", () => {
  it.for(Object.keys(VARIANTS))("%s writes: every change finds its text", (name, { expect }) => {
    const config = writeVariant(name);
    try {
      expect(existsSync(config)).toBe(true);
    } finally {
      rmSync(dirname(config), { recursive: true, force: true });
    }
  });

  it.for(
    Object.entries(VARIANTS).flatMap(([name, variant]) =>
      Object.keys(variant.patch ?? {}).map((file): [string, string] => [name, file]),
    ),
  )("%s: the engine's name resolves to a face whose %s is patched", ([name, file], { expect }) => {
    const config = writeVariant(name);
    try {
      const alias = /^"mcp-task-worker" = (".*")$/m.exec(readFileSync(config, "utf8"));
      expect(alias, "an [alias] line for mcp-task-worker").not.toBeNull();
      const face = String(JSON.parse(alias?.[1] ?? '""'));
      expect(readFileSync(face, "utf8")).toContain(`from "${join(dirname(face), file.replace(/\.ts$/, ""))}"`);
      expect(readFileSync(join(dirname(face), file), "utf8")).not.toBe(
        readFileSync(join(ROOT, "src/package", file), "utf8"),
      );
    } finally {
      rmSync(dirname(config), { recursive: true, force: true });
    }
  });
});
