/** Stands in for ajv-formats beside src/shims/ajv.ts: @cfworker/json-schema checks formats itself, so adding them is a no-op. */
export default function addFormats<T>(ajv: T): T {
  return ajv;
}
