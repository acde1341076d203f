/**
 * Stands in for "zod/v4" in the Worker bundle (wrangler.toml `[alias]`): the same zod 4, minus
 * its 48 error-message locales (only English is ever used). `import { z } from "zod/v4"`, as
 * @modelcontextprotocol/ext-tasks writes it, hands out a namespace as a value, and esbuild then
 * keeps every export of that namespace: with zod's own, the locales (39 KiB gzip and ~10 ms of
 * startup CPU); with this module's namespace, the rest of classic zod (35 KiB raw). So `z` here is
 * a plain object of the builders ext-tasks calls (test/unit/zod-v4-shim.test.ts compares the two
 * lists), and a member it lacks throws, naming this file. Our own code imports `* as z from "zod"`,
 * which esbuild shakes by itself (docs/bundle.md).
 */
import {
  array,
  boolean,
  custom,
  discriminatedUnion,
  enum as enumOf,
  int,
  intersection,
  literal,
  NEVER,
  number,
  object,
  record,
  strictObject,
  string,
  union,
  unknown,
} from "./namespace";

export * from "./namespace";

/** What ext-tasks' generated schemas call on `z`. */
export const Z_BUILDERS = {
  array,
  boolean,
  custom,
  discriminatedUnion,
  enum: enumOf,
  int,
  intersection,
  literal,
  NEVER,
  number,
  object,
  record,
  strictObject,
  string,
  union,
  unknown,
};

export const z: typeof Z_BUILDERS = new Proxy(Z_BUILDERS, {
  get(target, key, receiver) {
    if (typeof key === "string" && !(key in target))
      throw new Error(
        `z.${key} is not in mcp-task-worker's zod/v4 stand-in (src/shims/zod-v4/index.ts): add it to Z_BUILDERS, or remove the "zod/v4" alias from your wrangler config.`,
      );
    return Reflect.get(target, key, receiver);
  },
});

export default z;
