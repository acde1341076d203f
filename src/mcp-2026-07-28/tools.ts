/**
 * `tools/list` and `tools/call` in 2026-07-28. Tasks are server-directed: a task-capable tool called
 * by a client that declared the Tasks extension answers `CreateTaskResult` as soon as the task is
 * durable (`params.task` means nothing in this era). A client that did not declare it never sees a
 * task: the call waits up to INLINE_WAIT_MS and answers the result, or the fallback link; a tool
 * that only runs as a task is `-32021`. Quick ("forbidden") tools run right here.
 */
import { z } from "zod";
import { InputResponsesV2Schema } from "@modelcontextprotocol/ext-tasks/core/v2";
import { parseCallMeta, type CallMeta } from "../mcp/call-meta";
import { callCheckBackTool, isCheckBackTool } from "../mcp/check-back-tools";
import { ErrorCode, ProtocolError } from "../mcp/errors";
import { checkedWebhook, parseArguments } from "../mcp/handlers/tools";
import { toolListings } from "../protocol/tool-listings";
import { inlineJobHost } from "../jobs/inline-host";
import { runJob } from "../jobs/runner";
import { RELATED_TASK_META_KEY } from "@modelcontextprotocol/sdk/types.js";
import { isTerminal, type JsonObject, type TaskOutcome } from "../tasks/model";
import type { TaskSnapshot } from "../tasks/task-object";
import type { Tool } from "../tools/define";
import { findTool } from "../tools/registry";
import { callNotifier, type CallNotifier } from "./call-notifications";
import type { ModernContext } from "./context";
import { invalidParams, tasksExtensionRequired } from "./errors";
import { stillRunning } from "./fallback";
import { waitInline } from "./follow-call";
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

/** 2025 `related-task` `_meta` has no meaning in this era; the correlation id stays. */
function withoutRelatedTask(result: JsonObject): JsonObject {
  const meta = result["_meta"];
  if (!isRecord(meta) || !(RELATED_TASK_META_KEY in meta)) return result;
  return { ...result, _meta: Object.fromEntries(Object.entries(meta).filter(([key]) => key !== RELATED_TASK_META_KEY)) };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

export async function callTool(ctx: ModernContext, params: Record<string, unknown>): Promise<JsonObject> {
  const { name, arguments: rawArgs, requestState } = parseParams(params);
  if (requestState !== undefined) throw invalidParams("requestState was not issued by this server (or has expired): call the tool again without it.");
  if (isCheckBackTool(name)) return withoutRelatedTask(await callCheckBackTool(name, rawArgs, undefined, ctx));
  const tool = findTool(name);
  if (!tool) throw invalidParams(`Unknown tool "${name.slice(0, 64)}". Call tools/list to see the tools this server offers.`);
  const call = parseCallMeta(params["_meta"]);
  const args = parseArguments(tool, rawArgs, ctx.settings.maxArgumentBytes);
  const notifier = callNotifier(ctx, tool.name, call.progressToken);
  if (tool.taskSupport === "forbidden") return runQuickTool(tool, args, notifier, ctx);
  if (tool.taskSupport === "required" && !ctx.envelope.tasks) throw tasksExtensionRequired(`tool "${tool.name}" only runs as a task.`);

  const created = await ctx.gateway.create({
    tool: tool.name,
    args,
    requestedTtlMs: null,
    meta: taskMeta(call, ctx),
    ...(call.idempotencyKey !== undefined && { idempotencyKey: call.idempotencyKey }),
  });
  // A full quota is something the model can act on (wait, or cancel tasks), so it sees it as a result.
  if (!created.ok) return { content: [{ type: "text", text: created.message }], isError: true };
  const { snapshot } = created;
  if (ctx.envelope.tasks) return createTaskResult(snapshot);

  const taskId = snapshot.task.taskId;
  const waited = await waitInline(ctx, taskId, notifier, Date.now() + ctx.settings.inlineWaitMs);
  switch (waited.kind) {
    case "result":
      return callResult(snapshot, waited.outcome);
    case "left":
      // Closing the stream cancels the request (cancellation.mdx); nobody else holds this task's id.
      ctx.waitUntil(ctx.gateway.cancel(taskId).catch(() => undefined));
      throw cancelled();
    case "timeout":
    case "gone": {
      // A fresh look: the data beside the link shows the progress made meanwhile, or the end.
      const latest = (await ctx.gateway.get(taskId)) ?? snapshot;
      if (isTerminal(latest.task.status) && latest.outcome) return callResult(latest, latest.outcome);
      return stillRunning(ctx, tool.name, latest);
    }
  }
}

/** What the call answers once its task ended: the tool's result, or the JSON-RPC error the task ended with. */
function callResult(snapshot: TaskSnapshot, outcome: TaskOutcome): JsonObject {
  if (outcome.kind === "error") throw new ProtocolError(outcome.error.code, outcome.error.message);
  return { ...inlinedResult(snapshot, outcome.result) };
}

/** Nobody reads it (the client left), but the request still ends with an answer. */
const cancelled = (): ProtocolError => new ProtocolError(ErrorCode.InternalError, "The call was cancelled: the client closed its response stream.");

function taskMeta(call: CallMeta, ctx: ModernContext): JsonObject {
  return {
    ...(call.progressToken !== undefined && { progressToken: call.progressToken }),
    ...(call.correlationId !== undefined && { correlationId: call.correlationId }),
    ...(call.webhook !== undefined && { webhook: checkedWebhook(call.webhook, ctx.env) }),
    // The TaskObject does not know the Worker's public origin; webhooks link to `${baseUrl}/tasks/{id}`.
    baseUrl: ctx.baseUrl,
  };
}

/** A "forbidden" tool: run in this request, its progress and logs on the call's own stream. */
async function runQuickTool(tool: Tool, args: JsonObject, notifier: CallNotifier, ctx: ModernContext): Promise<JsonObject> {
  const host = inlineJobHost({
    signal: ctx.output.signal,
    onProgress: (progress, total, message) => notifier.progress({ progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) }),
    onLog: (level, message) => notifier.log(level, message),
  });
  const outcome = await runJob(tool.name, args, host);
  switch (outcome.kind) {
    case "completed":
      return { ...outcome.result };
    case "failed":
      return { content: [{ type: "text", text: outcome.message }], isError: true };
    case "yielded":
      return { content: [{ type: "text", text: `"${tool.name}" tried to wait durably, which a quick tool cannot do; declare taskSupport "optional" for it.` }], isError: true };
    case "aborted":
      throw cancelled();
  }
}
