/**
 * zod 4's exports as "zod" has them, but for the two namespaces that hold the locale tables: a
 * module's own exports win over `export *`, so these replace zod's `locales`, `core` and `z`.
 */
export * from "zod";
export * as core from "./core";
/** Not available in this Worker: `z.config(z.locales.xx())` has nothing to load. */
export const locales = {};
/** zod's own namespace value (it holds the locales): `z` is ./index.ts's, this module's namespace. */
export const z = undefined;
/**
 * Not available in this Worker: zod's ahead-of-time compiler builds its validators with
 * `new Function`, which workerd forbids, and nothing here parses a schema from JSON Schema. A
 * namespace import keeps every export it names, so these two would cost 43 KiB raw unused.
 */
export const compile = undefined;
export const withParser = undefined;
export const fromJSONSchema = undefined;
