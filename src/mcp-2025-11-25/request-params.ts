/**
 * Checks a request's params against the SDK's schema for its method before the SDK sees
 * it: the SDK's Protocol reports a params schema failure as -32603 (internal error), but it
 * is the client's mistake, -32602 (Invalid params), and the message should name the field.
 */
import { ClientRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { describeIssues } from "../protocol/params";

const schemaByMethod = new Map<string, (typeof ClientRequestSchema.options)[number]>(
  ClientRequestSchema.options.map((schema) => [schema.shape.method.value, schema]),
);

/** Why the request's params are invalid, or undefined when they are fine (or the method is unknown: the SDK answers -32601). */
export function paramsProblem(request: { method: string }): string | undefined {
  const schema = schemaByMethod.get(request.method);
  if (!schema) return undefined;
  const parsed = schema.safeParse(request);
  if (parsed.success) return undefined;
  return `Invalid params for ${request.method}: ${describeIssues(parsed.error.issues, 5)}`;
}
