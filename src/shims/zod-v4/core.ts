/** zod's "zod/v4/core" (aliased to zod's file in wrangler.toml), minus its `locales` namespace. */
export * from "zod/v4/core";
export const locales = {};
