/**
 * Follow a task on a response stream: forward its progress and status as MCP
 * notifications with routable event ids, until its result, a deadline, or the client leaves.
 */
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { TaskOutcome } from "../core/model";
import type { McpContext } from "./context";
import { taskEventId } from "../streams/event-ids";
import { messageForEvent, outcomeFromResultEvent } from "./task-messages";

export type FollowResult =
  | { kind: "result"; outcome: TaskOutcome }
  | { kind: "timeout"; lastSeq: number }
  | { kind: "gone" }
  | { kind: "disconnected" };

export interface FollowOptions {
  taskId: string;
  requestId: RequestId;
  progressToken?: string | number;
  streamKind: "call" | "result";
  meta: Record<string, unknown>;
  afterSeq: number;
  deadline?: number;
}

export async function followTask(ctx: McpContext, options: FollowOptions): Promise<FollowResult> {
  const { gateway, output } = ctx;
  const { taskId, requestId, progressToken } = options;
  const streamKey = output.streaming
    ? await gateway.openStream(taskId, { kind: options.streamKind, requestId, ...(progressToken !== undefined && { progressToken }) })
    : undefined;
  const feed = await gateway.feed(taskId, options.afterSeq);
  if (!feed) return { kind: "gone" };
  let disconnected = false;
  output.onClose(() => {
    disconnected = true;
    feed.close();
  });
  let lastSeq = options.afterSeq;
  const target = { taskId, requestId, meta: options.meta, ...(progressToken !== undefined && { progressToken }) };
  try {
    for (;;) {
      const remaining = options.deadline === undefined ? undefined : options.deadline - Date.now();
      if (remaining !== undefined && remaining <= 0) break;
      const event = await feed.next(remaining);
      if (event === undefined) break;
      if (event === null) return disconnected ? { kind: "disconnected" } : { kind: "gone" };
      lastSeq = event.seq;
      if (event.type === "result") {
        if (streamKey !== undefined) output.setResponseEventId(requestId, taskEventId(taskId, streamKey, event.seq));
        return { kind: "result", outcome: outcomeFromResultEvent(event.data) };
      }
      if (streamKey === undefined) continue;
      const message = messageForEvent(event, target);
      if (message) output.notify(message, taskEventId(taskId, streamKey, event.seq));
    }
  } finally {
    feed.close();
  }
  if (streamKey !== undefined) await gateway.endStream(taskId, streamKey, lastSeq);
  return { kind: "timeout", lastSeq };
}
