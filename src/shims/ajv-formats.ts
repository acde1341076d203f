/** Stands in for ajv-formats beside src/shims/ajv.ts: nothing can reach it, since no Ajv is ever built. */
export default function addFormats(): never {
  throw new Error("ajv-formats is left out of this Worker's bundle (see src/shims/ajv.ts).");
}
