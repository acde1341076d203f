/** A zod input schema as the JSON Schema `tools/list` publishes (no `$schema` key). */
import * as z from "zod";
import type { JsonObject } from "../json";

export function jsonInputSchema(schema: z.ZodObject): JsonObject {
  const json = z.toJSONSchema(schema) as JsonObject;
  delete json["$schema"];
  return json;
}
