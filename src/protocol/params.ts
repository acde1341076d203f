/**
 * Request params checked with zod at the edge, the same way in every era: a failure is `-32602`
 * naming the fields ("Invalid params for tasks/get: taskId: …"), never an internal error.
 */
import * as z from "zod";
import { invalidParams } from "./errors";

/** What a zod issue says (zod 4's, and the MCP SDK's schemas'). */
interface Issue {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/** "a.b: message; (root): message": where each of the first `limit` issues is, and what is wrong there. */
export function describeIssues(issues: readonly Issue[], limit = Number.POSITIVE_INFINITY): string {
  return issues
    .slice(0, limit)
    .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`)
    .join("; ");
}

/** The params of `method` as `schema` reads them, or `-32602` naming the first three fields that are wrong. */
export function parseParams<T>(schema: z.ZodType<T>, method: string, params: unknown): T {
  const parsed = schema.safeParse(params);
  if (parsed.success) return parsed.data;
  throw invalidParams(`Invalid params for ${method}: ${describeIssues(parsed.error.issues, 3)}`);
}

const CursorParams = z.object({ cursor: z.string().max(1024).optional() }).loose();

/** A list request's cursor: undefined for the first page, or `invalid` when it is no string a list could have issued. */
export function cursorOf(params: unknown): { ok: true; cursor: string | undefined } | { ok: false } {
  const parsed = CursorParams.safeParse(params ?? {});
  return parsed.success ? { ok: true, cursor: parsed.data.cursor } : { ok: false };
}
