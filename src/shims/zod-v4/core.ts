/** zod's "zod/v4/core" (aliased to zod's file in wrangler.toml), minus its `locales` namespace. */
export * from "zod/v4/core";
export const locales = {};
/** Not available in this Worker: zod's compiler needs `new Function` (namespace.ts says why). */
export const compile = undefined;
export const compileFn = undefined;
export const withParser = undefined;
