/**
 * `tools/list` and `tools/call` in 2026-07-28. Tasks are server-directed: a task-capable tool called
 * by a client that declared the Tasks extension answers `CreateTaskResult` as soon as the task is
 * durable (`params.task` means nothing in this era). A client that did not declare it never sees a
 * task: the call waits up to INLINE_WAIT_MS and answers the result, or the fallback link; a tool
 * that only runs as a task is `-32021`. Quick ("forbidden") tools run right here.
 */
import * as z from "zod";
import { InputResponsesV2Schema } from "@modelcontextprotocol/ext-tasks/core/v2";
import type { TaskSnapshot } from "../core/task-object";
import type { JsonObject, TaskOutcome } from "../core/task-record";
import { callTool } from "../protocol/call-tool";
import { ProtocolError } from "../protocol/errors";
import { RELATED_TASK_META } from "../protocol/task-results";
import { toolListings } from "../protocol/tool-listings";
import { readWebhookSettings } from "../webhooks/settings";
import { callNotifier } from "./call-notifications";
import type { ModernContext } from "./context";
import { invalidParams, tasksExtensionRequired } from "./errors";
import { followCall } from "./follow-call";
import { cacheable, STATIC_TTL_MS } from "./results";
import { createTaskResult, inlinedResult } from "./task-wire";

/** The same listing as 2025 (task card `_meta` included), in the registry's fixed order, with caching hints. */
export function listTools(): JsonObject {
  return cacheable({ tools: toolListings() }, STATIC_TTL_MS, "public");
}

const CallParamsSchema = z
  .object({
    name: z.string().min(1).max(256),
    arguments: z.record(z.string(), z.unknown()).optional(),
    // Multi round-trip retries (issue 13 issues `requestState`; until then none is valid).
    inputResponses: InputResponsesV2Schema.optional(),
    requestState: z.string().max(16_384).optional(),
  })
  .loose();

function parseParams(params: Record<string, unknown>): z.infer<typeof CallParamsSchema> {
  const parsed = CallParamsSchema.safeParse(params);
  if (parsed.success) return parsed.data;
  const details = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  throw invalidParams(`Invalid params for tools/call: ${details.join("; ")}`);
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** 2025 `related-task` `_meta` has no meaning in this era; the correlation id stays. */
function withoutRelatedTask(result: JsonObject): JsonObject {
  const meta = result["_meta"];
  if (!isRecord(meta) || !(RELATED_TASK_META in meta)) return result;
  return { ...result, _meta: Object.fromEntries(Object.entries(meta).filter(([key]) => key !== RELATED_TASK_META)) };
}

/** What the call answers once its task ended: the tool's result, or the JSON-RPC error the task ended with. */
function callResult(snapshot: TaskSnapshot, outcome: TaskOutcome): JsonObject {
  if (outcome.kind === "error") throw new ProtocolError(outcome.error.code, outcome.error.message);
  return { ...inlinedResult(snapshot, outcome.result) };
}

export async function toolsCall(ctx: ModernContext, params: Record<string, unknown>): Promise<JsonObject> {
  const { name, arguments: args, requestState } = parseParams(params);
  if (requestState !== undefined) throw invalidParams("requestState was not issued by this server (or has expired): call the tool again without it.");
  const progressToken = isRecord(params["_meta"]) ? params["_meta"]["progressToken"] : undefined;
  const notifier = callNotifier(ctx, name, typeof progressToken === "string" || typeof progressToken === "number" ? progressToken : undefined);
  const outcome = await callTool(
    // `params.task` means nothing in this era: the client's declaration of the extension decides.
    { name, arguments: args, meta: params["_meta"], task: ctx.envelope.tasks ? { kind: "accepted" } : { kind: "none" }, signal: ctx.output.signal },
    {
      gateway: ctx.gateway,
      settings: ctx.settings,
      webhooks: readWebhookSettings(ctx.env),
      baseUrl: ctx.baseUrl,
      onInlineProgress: (progress) => notifier.progress(progress),
      onInlineLog: (level, message) => notifier.log(level, message),
      follow: (snapshot, deadline) => followCall(ctx, snapshot, notifier, deadline),
    },
  );
  switch (outcome.kind) {
    case "inline":
      return withoutRelatedTask(outcome.result);
    case "task":
      return createTaskResult(outcome.snapshot);
    case "result":
      return callResult(outcome.snapshot, outcome.outcome);
    case "still_running":
      return withoutRelatedTask(outcome.fallback);
    case "refused":
      if (outcome.reason === "task_required") throw tasksExtensionRequired(`tool "${name}" only runs as a task.`);
      // A full quota is something the model can act on (wait, or cancel tasks), so it sees it as a result.
      return { content: [{ type: "text", text: outcome.message }], isError: true };
  }
}
