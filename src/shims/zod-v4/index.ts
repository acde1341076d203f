/**
 * Stands in for "zod/v4" in the Worker bundle (wrangler.toml `[alias]`): the same zod 4, minus
 * its 48 error-message locales (only English is ever used). `import { z } from "zod/v4"`, as
 * @modelcontextprotocol/ext-tasks writes it, hands out zod's namespace as a value, and esbuild then
 * keeps every export of that namespace, locales included: 39 KiB gzip and ~10 ms of startup CPU
 * (docs/bundle.md). Our own code imports `* as z from "zod"`, which esbuild shakes by itself.
 */
import * as z from "./namespace";

export * from "./namespace";
export { z, z as default };
