/** Parses the `_meta` of a `tools/call`: the progress token and our own keys (docs/protocol.md, "Our `_meta` keys"). */
import * as z from "zod";
import { CORRELATION_ID_META } from "../core";
import { ErrorCode, ProtocolError } from "./errors";

export const IDEMPOTENCY_KEY_META = "mcp-task-worker/idempotency-key";
export const WEBHOOK_META = "mcp-task-worker/webhook";

const CallMetaSchema = z
  .object({
    progressToken: z.union([z.string().max(256), z.number()]).optional(),
    [IDEMPOTENCY_KEY_META]: z.string().min(1).max(256).optional(),
    [CORRELATION_ID_META]: z.string().min(1).max(256).optional(),
    [WEBHOOK_META]: z.unknown().optional(),
  })
  .loose();

export interface CallMeta {
  progressToken?: string | number;
  idempotencyKey?: string;
  correlationId?: string;
  webhook?: unknown;
}

export function parseCallMeta(meta: unknown): CallMeta {
  if (meta === undefined || meta === null) return {};
  const parsed = CallMetaSchema.safeParse(meta);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Invalid _meta${issue ? ` at "${issue.path.join(".")}": ${issue.message}` : ""}. See the README for the _meta keys this server reads.`,
    );
  }
  const data = parsed.data;
  return {
    ...(data.progressToken !== undefined && { progressToken: data.progressToken }),
    ...(data[IDEMPOTENCY_KEY_META] !== undefined && { idempotencyKey: data[IDEMPOTENCY_KEY_META] }),
    ...(data[CORRELATION_ID_META] !== undefined && { correlationId: data[CORRELATION_ID_META] }),
    ...(data[WEBHOOK_META] !== undefined && { webhook: data[WEBHOOK_META] }),
  };
}
