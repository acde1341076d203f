/**
 * `tools/list` and `tools/call` in 2026-07-28. Tasks are server-directed: a task-capable tool called
 * by a client that declared the Tasks extension answers `CreateTaskResult` as soon as the task is
 * durable (`params.task` means nothing in this era). A client that did not declare it never sees a
 * task: the call waits up to INLINE_WAIT_MS and answers the result, or the fallback link; a tool
 * that only runs as a task is `-32021`. Quick ("forbidden") tools run right here.
 */
import * as z from "zod";
import { InputResponsesV2Schema } from "@modelcontextprotocol/ext-tasks/core/v2";
import { isRecord, type JsonObject } from "../json";
import { callTool } from "../protocol/call-tool";
import { parseParams } from "../protocol/params";
import { toolListings } from "../protocol/tool-listings";
import { callNotifier } from "./call-notifications";
import type { Context20260728 } from "./context";
import { taskOnlyTool } from "./errors";
import { callResult, withoutRelatedTask } from "./call-results";
import { followCall } from "./follow-call";
import { canElicit, continueCall, inputRequired } from "./input-required";
import { cacheable, STATIC_TTL_MS } from "./results";
import { createTaskResult } from "./task-wire";

/** The same listing as 2025 (task card `_meta` included), in the registry's fixed order, with caching hints. */
export function listTools(ctx: Context20260728): JsonObject {
  return cacheable({ tools: toolListings(ctx.tools) }, STATIC_TTL_MS, "public");
}

const CallParamsSchema = z
  .object({
    name: z.string().min(1).max(256),
    arguments: z.record(z.string(), z.unknown()).optional(),
    // A multi round-trip retry: the answers, and the requestState the first answer issued (input-required.ts).
    inputResponses: InputResponsesV2Schema.optional(),
    requestState: z.string().max(16_384).optional(),
  })
  .loose();

export async function toolsCall(ctx: Context20260728, params: Record<string, unknown>): Promise<JsonObject> {
  const { name, arguments: args, requestState, inputResponses } = parseParams(CallParamsSchema, "tools/call", params);
  const progressToken = isRecord(params["_meta"]) ? params["_meta"]["progressToken"] : undefined;
  const notifier = callNotifier(
    ctx,
    name,
    typeof progressToken === "string" || typeof progressToken === "number" ? progressToken : undefined,
  );
  if (requestState !== undefined)
    return continueCall(
      ctx,
      { tool: name, args, requestState, ...(inputResponses !== undefined && { inputResponses }) },
      notifier,
    );
  const outcome = await callTool(
    // `params.task` means nothing in this era: the client's declaration of the extension decides.
    {
      name,
      arguments: args,
      meta: params["_meta"],
      task: ctx.envelope.tasks ? { kind: "accepted" } : { kind: "none" },
      signal: ctx.output.signal,
    },
    ctx,
    {
      onInlineProgress: (progress) => notifier.progress(progress),
      onInlineLog: (level, message) => notifier.log(level, message),
      follow: (snapshot, deadline, plan) => followCall(ctx, snapshot, notifier, deadline, plan),
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
      // The task asks a question: a client that can show a form gets it now, as a multi round-trip.
      if (outcome.snapshot.task.status === "input_required" && canElicit(ctx.envelope)) {
        return inputRequired(ctx, outcome.snapshot, { tool: name, args, owned: outcome.created });
      }
      return withoutRelatedTask(outcome.fallback);
    case "refused":
      if (outcome.reason === "task_required") throw taskOnlyTool(outcome.message);
      // A full quota is something the model can act on (wait, or cancel tasks), so it sees it as a result.
      return { content: [{ type: "text", text: outcome.message }], isError: true };
  }
}
