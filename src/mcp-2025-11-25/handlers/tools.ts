/**
 * `tools/list` and `tools/call`: the era-free policy (protocol/call-tool.ts) decides what a call
 * does; this frames its outcome for 2025-11-25 (a CreateTaskResult for a task-augmented call, the
 * call's SSE stream for a plain one).
 */
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  ListToolsResultSchema,
  type ListToolsResult,
} from "@modelcontextprotocol/sdk/types.js";
import { callTool, type TaskPreference } from "../../protocol/call-tool";
import { ErrorCode, ProtocolError } from "../../protocol/errors";
import { finalResult } from "../../protocol/task-results";
import { toolListings } from "../../protocol/tool-listings";
import { whileOpen } from "../cancellations";
import type { McpContext } from "../context";
import { followTask } from "../follow-task";
import type { SdkServer } from "../sdk-server";
import { progressNotification, wireTask } from "../task-messages";
import { callStream, RESPONSE_STREAM_STATE, sessionFeedFor } from "../task-streams";

/** The key of the plain call's own stream when it is registered with the task it creates (its first stream). */
const CALL_STREAM_KEY = "1";

/** Parsed once per isolate: the SDK's own schema checks our listing and gives it its type. */
let listing: ListToolsResult | undefined;
const listTools = (ctx: McpContext): ListToolsResult =>
  (listing ??= ListToolsResultSchema.parse({ tools: toolListings(ctx.tools) }));

export function registerToolHandlers(server: SdkServer, ctx: McpContext): void {
  server.setRequestHandler(ListToolsRequestSchema, async () => listTools(ctx));

  server.onToolCall(CallToolRequestSchema, async (request, extra) => {
    const { name, task } = request.params;
    const preference: TaskPreference = task ? { kind: "requested", ttlMs: task.ttl ?? null } : { kind: "none" };
    const outcome = await callTool(
      { name, arguments: request.params.arguments, meta: request.params._meta, task: preference, signal: extra.signal },
      ctx,
      {
        // A plain call's own stream is registered with the task it creates, so it is open from the
        // task's first event: a question asked at once is asked here, not on the GET stream.
        state: (meta) => [
          ...sessionFeedFor(ctx, meta, task !== undefined),
          ...(task === undefined && ctx.output.streaming
            ? [{ kind: RESPONSE_STREAM_STATE, key: CALL_STREAM_KEY, value: callStream(extra.requestId, meta, ctx) }]
            : []),
        ],
        onInlineProgress: (progress) => {
          const token = request.params._meta?.progressToken;
          if (token !== undefined && ctx.output.streaming) ctx.output.notify(progressNotification(token, progress));
        },
        // Its stream carries the task's questions to a client that can answer them (callStream).
        canAsk: ctx.output.streaming && ctx.clientElicitation,
        follow: (snapshot, deadline, plan, created) => {
          const follow = () =>
            followTask(ctx, {
              taskId: snapshot.task.taskId,
              requestId: extra.requestId,
              stream: callStream(extra.requestId, snapshot.meta, ctx),
              meta: snapshot.meta,
              afterSeq: 0,
              deadline,
              endAtQuestion: true,
              ...(created && { registered: CALL_STREAM_KEY }),
              ...(snapshot.inputRequests && { pending: snapshot.inputRequests }),
            }).then((followed) =>
              followed.kind === "disconnected" ? { kind: "ended" as const, lastSeq: 0 } : followed,
            );
          // While it is open, a notifications/cancelled naming this call stops its own task (cancellations.ts).
          return plan.cancelOnLeave
            ? whileOpen(ctx, extra.requestId, snapshot.task.taskId, deadline, follow)
            : follow();
        },
      },
    );
    switch (outcome.kind) {
      case "inline":
        return outcome.result;
      case "task": {
        const { snapshot } = outcome;
        return {
          task: wireTask(snapshot.task, snapshot.meta),
          _meta: {
            // Read by the model while the client follows the task: words for it, no wire methods (docs/model-facing.md).
            "io.modelcontextprotocol/model-immediate-response": `Started: "${name}" runs in the background as task ${snapshot.task.taskId}; its result comes when it finishes (task_status shows progress meanwhile).`,
          },
        };
      }
      case "result":
        return finalResult(outcome.snapshot.task.taskId, outcome.outcome, outcome.snapshot.meta);
      case "still_running":
        return outcome.fallback;
      case "refused":
        throw new ProtocolError(
          outcome.reason === "quota" ? ErrorCode.InvalidRequest : ErrorCode.MethodNotFound,
          outcome.message,
        );
    }
  });
}
