/**
 * The era-free policy of a `tools/call`: which tools run right here, which become tasks, and how
 * long a plain call waits for its task. Both protocol adapters call callTool() and frame its
 * outcome their own way (2025: CreateTaskResult and SSE notifications; 2026: `resultType: "task"`).
 */
import type { WebhookSettings } from "../config";
import {
  isTerminal,
  type AdapterStateEntry,
  type LogLevel,
  type Progress,
  type TaskGateway,
  type TaskMeta,
  type TaskOutcome,
  type TaskSnapshot,
} from "../core";
import type { JsonObject } from "../json";
import { inlineJobHost } from "../jobs/inline-host";
import { runTool } from "../jobs/runner";
import type { Tool } from "../jobs/define-tool";
import { parseWebhookRegistration } from "../webhooks/registration";
import { parseCallMeta, type CallMeta } from "./call-meta";
import { callCheckBackTool, isCheckBackTool } from "./check-back-tools";
import { ErrorCode, ProtocolError } from "./errors";
import { planPlainCall, type PlainCallPlan } from "./call-policy";
import { followFeed, type FollowResult } from "./follow";
import { describeIssues } from "./params";
import type { RequestContext } from "./request-context";
import { stillRunningResult } from "./task-results";

/** Whether the client can take a task as the answer to this call. */
export type TaskPreference =
  /** It asked for one (2025's `params.task`): a tool that never runs as a task is refused. */
  | { kind: "requested"; ttlMs?: number | null }
  /** It takes one when the tool runs as a task, and an inline answer otherwise (2026, extension declared). */
  | { kind: "accepted"; ttlMs?: number | null }
  /** It cannot: a task-capable call waits for its task, then answers with its result or a link to it. */
  | { kind: "none" };

export interface ToolCall {
  name: string;
  arguments: unknown;
  /** The request's `_meta`, unparsed (progress token and our keys). */
  meta: unknown;
  task: TaskPreference;
  /** Aborts when the client cancels the request (it ends an inline run). */
  signal: AbortSignal;
}

/** How an era takes part in a call: what it keeps with the task, and what it does with an inline run's progress and a plain call's wait. */
export interface ToolCallHooks {
  /** Adapter state to keep with the task this call creates (which stream follows it, say). */
  state?(meta: TaskMeta): AdapterStateEntry[];
  /** Progress of a tool that runs here (taskSupport "forbidden"). */
  onInlineProgress?(progress: Progress): void;
  /** Log lines of a tool that runs here (a 2026 request that set a log level hears them). */
  onInlineLog?(level: LogLevel, message: string): void;
  /** A plain call can put its task's questions to its client while it waits (else it stops at one). */
  canAsk?: boolean;
  /**
   * How a plain call waits for its task until `deadline`, as `plan` says (call-policy.ts): the
   * adapter's own, to stream what it wants (and pass the task's questions on, if its client can
   * answer them); by default a silent wait that stops at the first question. `created`: this call
   * created the task (with the `state` above).
   */
  follow?(snapshot: TaskSnapshot, deadline: number, plan: PlainCallPlan, created: boolean): Promise<FollowResult>;
}

export type ToolCallOutcome =
  /** The tool ran here (taskSupport "forbidden", or a check-back tool). */
  | { kind: "inline"; result: JsonObject }
  /** A task was created (or found by its idempotency key): answer with it as a task. */
  | { kind: "task"; snapshot: TaskSnapshot; created: boolean }
  /** A plain call's task ended within INLINE_WAIT_MS: answer with its result. */
  | { kind: "result"; snapshot: TaskSnapshot; outcome: TaskOutcome }
  /** It did not: answer with `fallback`, a link to the task and how to check back. */
  | { kind: "still_running"; snapshot: TaskSnapshot; fallback: JsonObject; created: boolean }
  /** The tool's task support does not fit the call, or the principal's quota of unfinished tasks is full; each era says so its own way. */
  | { kind: "refused"; reason: "task_required" | "task_forbidden" | "quota"; message: string };

const forbidden = (name: string): ToolCallOutcome => ({
  kind: "refused",
  reason: "task_forbidden",
  message: `Tool "${name}" does not run as a task (execution.taskSupport is "forbidden"); call it without params.task.`,
});

/**
 * One sentence a model can relay and a user can act on (docs/model-facing.md); each era wraps it in
 * the error its spec fixes (2025: -32601; 2026: -32021 naming the Tasks extension in its data).
 */
export const taskOnlyMessage = (name: string): string =>
  `Not started: "${name}" runs only as a background task, and this client cannot follow background tasks. Run it from a client that supports MCP tasks (for example interactive Claude Code).`;

/** The call in `ctx` (the caller's gateway, the settings, the session a 2025 call came in); `hooks` are the era's part. */
export async function callTool(
  call: ToolCall,
  ctx: RequestContext,
  hooks: ToolCallHooks = {},
): Promise<ToolCallOutcome> {
  const { name, task } = call;
  if (isCheckBackTool(name)) {
    if (task.kind === "requested") return forbidden(name);
    return { kind: "inline", result: await callCheckBackTool(name, call.arguments, { gateway: ctx.gateway }) };
  }
  const tool = ctx.tools.find(name);
  if (!tool)
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Unknown tool "${name}". Call tools/list to see the tools this server offers.`,
    );
  const meta = parseCallMeta(call.meta);
  const args = parseArguments(tool, call.arguments, ctx.settings.maxArgumentBytes);

  if (tool.taskSupport === "forbidden") {
    if (task.kind === "requested") return forbidden(name);
    return { kind: "inline", result: await runInline(tool, args, call.signal, hooks, ctx.caller) };
  }
  if (task.kind === "none" && tool.taskSupport === "required") {
    return { kind: "refused", reason: "task_required", message: taskOnlyMessage(name) };
  }

  const taskMeta = taskMetaFor(meta, ctx);
  const state = hooks.state?.(taskMeta);
  const created = await ctx.gateway.create({
    tool: tool.name,
    args,
    requestedTtlMs: task.kind === "none" ? null : (task.ttlMs ?? null),
    meta: taskMeta,
    ...(meta.idempotencyKey !== undefined && { idempotencyKey: meta.idempotencyKey }),
    ...(state !== undefined && state.length > 0 && { state }),
    wait: task.kind === "none",
  });
  // A key reused for another call (or one every caller would share) is the client's mistake: a protocol error.
  if (!created.ok && (created.reason === "key_conflict" || created.reason === "key_unscoped"))
    throw new ProtocolError(ErrorCode.InvalidParams, created.message);
  if (!created.ok) return { kind: "refused", reason: "quota", message: created.message };
  const { snapshot } = created;
  if (task.kind !== "none") return { kind: "task", snapshot, created: created.created };

  // A plain call: wait up to the inline budget, then fall back to a link.
  const deadline = Date.now() + ctx.settings.inlineWaitMs;
  const plan = planPlainCall(snapshot.task.status, { created: created.created, canAsk: hooks.canAsk === true });
  let followed: FollowResult | undefined;
  if (plan.wait && hooks.follow) followed = await hooks.follow(snapshot, deadline, plan, created.created);
  else if (plan.wait) followed = await waitFor(ctx.gateway, snapshot, deadline);
  if (followed?.kind === "result") return { kind: "result", snapshot, outcome: followed.outcome };
  // A fresh look, so the data beside the link shows the progress made while the call waited.
  const latest = (await ctx.gateway.get(snapshot.task.taskId)) ?? snapshot;
  if (isTerminal(latest.task.status) && latest.outcome)
    return { kind: "result", snapshot: latest, outcome: latest.outcome };
  const fallback = stillRunningResult(latest, ctx.baseUrl);
  return { kind: "still_running", snapshot: latest, fallback, created: created.created };
}

function parseArguments(tool: Tool, args: unknown, maxBytes: number): JsonObject {
  if (new TextEncoder().encode(JSON.stringify(args ?? {})).byteLength > maxBytes) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Arguments for "${tool.name}" exceed ${maxBytes} bytes (MAX_ARGUMENT_BYTES); pass large inputs by reference (a URL or key) instead.`,
    );
  }
  const parsed = tool.inputSchema.safeParse(args ?? {});
  if (!parsed.success) {
    throw new ProtocolError(
      ErrorCode.InvalidParams,
      `Invalid arguments for tool "${tool.name}": ${describeIssues(parsed.error.issues)}`,
    );
  }
  return parsed.data;
}

function taskMetaFor(call: CallMeta, ctx: RequestContext): TaskMeta {
  return {
    ...(call.progressToken !== undefined && { progressToken: call.progressToken }),
    ...(call.correlationId !== undefined && { correlationId: call.correlationId }),
    ...(ctx.sessionId !== undefined && { sessionId: ctx.sessionId }),
    ...(call.webhook !== undefined && { webhook: checkedWebhook(call.webhook, ctx.settings.webhooks) }),
    baseUrl: ctx.baseUrl,
  };
}

/** Validated before the task exists, so a refused webhook never creates a task. */
function checkedWebhook(raw: unknown, settings: WebhookSettings): NonNullable<TaskMeta["webhook"]> {
  const checked = parseWebhookRegistration(raw, settings);
  if (!checked.ok) throw new ProtocolError(ErrorCode.InvalidParams, checked.message);
  return checked.webhook;
}

async function waitFor(gateway: TaskGateway, snapshot: TaskSnapshot, deadline: number): Promise<FollowResult> {
  const feed = await gateway.feed(snapshot.task.taskId, snapshot.lastSeq);
  return feed
    ? followFeed(feed, { afterSeq: snapshot.lastSeq, deadline, stopOnQuestion: true })
    : { kind: "ended", lastSeq: snapshot.lastSeq };
}

async function runInline(
  tool: Tool,
  args: JsonObject,
  signal: AbortSignal,
  hooks: ToolCallHooks,
  caller: JsonObject | undefined,
): Promise<JsonObject> {
  const host = inlineJobHost({
    signal,
    onProgress: (progress, total, message) =>
      hooks.onInlineProgress?.({
        progress,
        ...(total !== undefined && { total }),
        ...(message !== undefined && { message }),
      }),
    onLog: (level, message) => hooks.onInlineLog?.(level, message),
  });
  // The caller is this request's own; the Worker's env reaches an inline call untyped, so job.env stays a task's.
  const outcome = await runTool(tool, args, host, undefined, { caller: { ok: true, value: caller } });
  switch (outcome.kind) {
    case "completed":
      return outcome.result;
    case "failed":
      return { content: [{ type: "text", text: outcome.message }], isError: true };
    case "yielded":
    case "awaiting_fan_out": // the inline host runs fan-outs in place, so only a durable sleep gets here
      return {
        content: [
          {
            type: "text",
            text: `"${tool.name}" tried to wait durably, which a quick tool cannot do; declare taskSupport "optional" for it.`,
          },
        ],
        isError: true,
      };
    case "input":
      return {
        content: [
          {
            type: "text",
            text: `"${tool.name}" asked a question (job.elicit), which a quick tool cannot do: the answer may take days. Declare taskSupport "optional" for it.`,
          },
        ],
        isError: true,
      };
    case "aborted":
      throw new ProtocolError(ErrorCode.RequestTimeout, "The call was cancelled.");
  }
}
