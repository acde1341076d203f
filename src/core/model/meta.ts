/**
 * The context a task keeps from the call that created it, for its whole life: typed here and
 * parsed with zod wherever it crosses a boundary (a feed's header, a caller's input).
 */
import * as z from "zod";

/** Our `_meta` key for the client's correlation id (docs/protocol.md, "Our `_meta` keys"). */
export const CORRELATION_ID_META = "mcp-task-worker/correlation-id";

export const TaskMetaSchema = z.object({
  /** The call's progress token: valid for the task's life. */
  progressToken: z.union([z.string(), z.number()]).optional(),
  /** Echoed on every view of the task and every webhook. */
  correlationId: z.string().optional(),
  /** The MCP session the task was created in. */
  sessionId: z.string().optional(),
  /** A checked webhook registration (webhooks/registration.ts). */
  webhook: z.object({ url: z.string(), events: z.array(z.string()) }).optional(),
  /** The server's public origin: the object cannot know it, and webhooks link to `${baseUrl}/tasks/{id}`. */
  baseUrl: z.string().optional(),
});
export type TaskMeta = z.infer<typeof TaskMetaSchema>;

/** Meta that arrived as text from elsewhere; what does not parse is dropped rather than trusted. */
export function parseTaskMeta(value: unknown): TaskMeta {
  const parsed = TaskMetaSchema.safeParse(value);
  return parsed.success ? parsed.data : {};
}

/** The `_meta` every view of the task echoes: the client's correlation id, if it gave one. */
export function echoMeta(meta: TaskMeta): { [CORRELATION_ID_META]: string } | undefined {
  return meta.correlationId === undefined ? undefined : { [CORRELATION_ID_META]: meta.correlationId };
}
