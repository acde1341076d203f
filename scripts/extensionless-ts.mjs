/**
 * `node --import ./scripts/extensionless-ts.mjs <script>`: lets a Node script load modules of src/,
 * whose relative imports name no extension (tsc's bundler resolution; wrangler's esbuild adds it).
 * Node strips their types itself; this only retries a relative import that was not found with `.ts`.
 */
import { registerHooks } from "node:module";

const relative = /^\.\.?\//;
const hasExtension = /\.[cm]?[jt]s$/;

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (error) {
      const notFound = error instanceof Error && "code" in error && error.code === "ERR_MODULE_NOT_FOUND";
      if (!notFound || !relative.test(specifier) || hasExtension.test(specifier)) throw error;
      return nextResolve(`${specifier}.ts`, context);
    }
  },
});
