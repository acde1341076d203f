/**
 * `tools/list` and `tools/call`. A task-augmented call becomes a task at once; a plain
 * call of a task-capable tool also runs as a task, answered inline if it ends within
 * INLINE_WAIT_MS, else with a link to the task; a "forbidden" tool runs right here.
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Protocol } from "@modelcontextprotocol/sdk/shared/protocol.js";
import { ErrorCode, ProtocolError } from "../errors";
import { inlineJobHost } from "../../jobs/inline-host";
import { runJob } from "../../jobs/runner";
import { taskResourceUri } from "../../tasks/ids";
import { isTerminal, type JsonObject } from "../../tasks/model";
import { findTool } from "../../tools/registry";
import type { Tool } from "../../tools/define";
import type { TaskSnapshot } from "../../tasks/task-object";
import { parseCallMeta, type CallMeta } from "../call-meta";
import { callCheckBackTool, isCheckBackTool } from "../check-back-tools";
import { toolListings } from "../../protocol/tool-listings";
import { taskStatusContent } from "../../protocol/task-status-data";
import { parseWebhookRegistration } from "../../webhooks/registration";
import { readWebhookSettings } from "../../webhooks/settings";
import type { McpContext } from "../context";
import { followTask } from "../follow-task";
import { finalResult, relatedTask, wireTask } from "../task-messages";

/** The call's arguments checked against the tool's schema and the size cap (both eras). */
export function parseArguments(tool: Tool, args: unknown, maxBytes: number): JsonObject {
  if (new TextEncoder().encode(JSON.stringify(args ?? {})).byteLength > maxBytes) {
    throw new ProtocolError(ErrorCode.InvalidParams, `Arguments for "${tool.name}" exceed ${maxBytes} bytes (MAX_ARGUMENT_BYTES); pass large inputs by reference (a URL or key) instead.`);
  }
  const parsed = tool.inputSchema.safeParse(args ?? {});
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`).join("; ");
    throw new ProtocolError(ErrorCode.InvalidParams, `Invalid arguments for tool "${tool.name}": ${details}`);
  }
  return parsed.data as JsonObject;
}

function taskMetaFor(call: CallMeta, ctx: McpContext): JsonObject {
  return {
    ...(call.progressToken !== undefined && { progressToken: call.progressToken }),
    ...(call.correlationId !== undefined && { correlationId: call.correlationId }),
    ...(ctx.sessionId !== undefined && { sessionId: ctx.sessionId }),
    ...(call.webhook !== undefined && { webhook: checkedWebhook(call.webhook, ctx.env) }),
    // The DO does not know the Worker's public origin; webhooks link to `${baseUrl}/tasks/{id}`.
    baseUrl: ctx.baseUrl,
  };
}

/** Validated before the task exists, so a refused webhook never creates a task (both eras). */
export function checkedWebhook(raw: unknown, env: Env): JsonObject {
  const checked = parseWebhookRegistration(raw, readWebhookSettings(env));
  if (!checked.ok) throw new ProtocolError(ErrorCode.InvalidParams, checked.message);
  return { ...checked.webhook };
}

export function registerToolHandlers(server: Server, ctx: McpContext): void {
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: toolListings() }) as never);

  // The SDK's Server re-parses a task-augmented tools/call result with its Task schema, which
  // drops `task._meta` (the correlation id DESIGN.md echoes there). Registering on Protocol
  // itself keeps it; the request is still parsed with CallToolRequestSchema.
  Protocol.prototype.setRequestHandler.call(server, CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: rawArgs, task } = request.params;
    if (isCheckBackTool(name)) return (await callCheckBackTool(name, rawArgs, task, ctx)) as never;
    const tool = findTool(name);
    if (!tool) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool "${name}". Call tools/list to see the tools this server offers.`);
    const call = parseCallMeta(request.params._meta);
    const args = parseArguments(tool, rawArgs, ctx.settings.maxArgumentBytes);

    if (tool.taskSupport === "forbidden") {
      if (task) throw new ProtocolError(ErrorCode.MethodNotFound, `Tool "${name}" does not run as a task (execution.taskSupport is "forbidden"); call it without params.task.`);
      return runInline(tool, args, call, ctx, extra.signal);
    }
    if (!task && tool.taskSupport === "required") {
      throw new ProtocolError(ErrorCode.MethodNotFound, `Tool "${name}" only runs as a task (execution.taskSupport is "required"); call it with params.task.`);
    }

    const created = await ctx.gateway.create({
      tool: tool.name,
      args,
      requestedTtlMs: task?.ttl ?? null,
      meta: taskMetaFor(call, ctx),
      ...(call.idempotencyKey !== undefined && { idempotencyKey: call.idempotencyKey }),
    });
    if (!created.ok) throw new ProtocolError(ErrorCode.InvalidRequest, created.message);
    const { snapshot } = created;
    const taskId = snapshot.task.taskId;

    if (task) {
      return {
        task: wireTask(snapshot.task, snapshot),
        _meta: {
          "io.modelcontextprotocol/model-immediate-response": `Started task ${taskId} for "${name}". It runs in the background; its result will be available through tasks/result.`,
        },
      } as never;
    }

    // A plain call: wait up to the inline budget, streaming progress, then fall back to a link.
    const followed = await followTask(ctx, {
      taskId,
      requestId: extra.requestId,
      streamKind: "call",
      meta: snapshot.meta,
      afterSeq: 0,
      deadline: Date.now() + ctx.settings.inlineWaitMs,
      ...(call.progressToken !== undefined && { progressToken: call.progressToken }),
    });
    if (followed.kind === "result") return finalResult(taskId, followed.outcome, snapshot) as never;
    // A fresh look, so the data beside the link shows the progress made while we waited.
    const latest = (await ctx.gateway.get(taskId)) ?? snapshot;
    if (isTerminal(latest.task.status) && latest.outcome) return finalResult(taskId, latest.outcome, latest) as never;
    return stillRunning(taskId, name, ctx, latest) as never;
  });
}

/** A plain call that outlasted the inline budget: prose and a link for the model, the task as data for the card and programs. */
function stillRunning(taskId: string, toolName: string, ctx: McpContext, snapshot: TaskSnapshot): JsonObject {
  const uri = taskResourceUri(taskId);
  const correlation = typeof snapshot.meta["correlationId"] === "string" ? { "mcp-task-worker/correlation-id": snapshot.meta["correlationId"] } : {};
  return {
    content: [
      {
        type: "text",
        text:
          `"${toolName}" is still running in the background as task ${taskId}; this is not its result. ` +
          `To check back later, read the resource ${uri} (it shows status, progress and, once finished, the result), ` +
          `or call the task_status / task_result tools with taskId "${taskId}". Plain HTTP: GET ${ctx.baseUrl}/tasks/${taskId}.`,
      },
      { type: "resource_link", uri, name: `task-${taskId}`, title: `Task ${taskId} (${toolName})`, mimeType: "application/json", description: "Status, progress and result of the running tool call." },
    ],
    structuredContent: taskStatusContent(snapshot),
    _meta: { ...relatedTask(taskId), ...correlation },
  };
}

async function runInline(tool: Tool, args: JsonObject, call: CallMeta, ctx: McpContext, signal: AbortSignal): Promise<never> {
  const host = inlineJobHost({
    signal,
    onProgress: (progress, total, message) => {
      if (call.progressToken === undefined || !ctx.output.streaming) return;
      ctx.output.notify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: call.progressToken, progress, ...(total !== undefined && { total }), ...(message !== undefined && { message }) } });
    },
  });
  const outcome = await runJob(tool.name, args, host);
  switch (outcome.kind) {
    case "completed":
      return outcome.result as never;
    case "failed":
      return { content: [{ type: "text", text: outcome.message }], isError: true } as never;
    case "yielded":
      return { content: [{ type: "text", text: `"${tool.name}" tried to wait durably, which a quick tool cannot do; declare taskSupport "optional" for it.` }], isError: true } as never;
    case "aborted":
      throw new ProtocolError(ErrorCode.RequestTimeout, "The call was cancelled.");
  }
}
