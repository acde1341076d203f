/**
 * Follow a task on a response stream: register the stream (so its event ids can be resumed),
 * forward the events it carries as MCP messages with routable ids, until the task's result, a
 * deadline, or the client leaves.
 */
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { TaskMeta } from "../core/task-meta";
import { followFeed, type FollowResult } from "../protocol/follow";
import { taskEventId } from "../streams/event-ids";
import type { McpContext } from "./context";
import { messageForEvent } from "./task-messages";
import { RESPONSE_STREAM_STATE, type ResponseStream } from "./task-streams";

export type Followed = FollowResult | { kind: "disconnected" };

export interface FollowOptions {
  taskId: string;
  requestId: RequestId;
  stream: ResponseStream;
  meta: TaskMeta;
  afterSeq: number;
  deadline?: number;
}

export async function followTask(ctx: McpContext, options: FollowOptions): Promise<Followed> {
  const { gateway, output } = ctx;
  const { taskId, requestId, stream, afterSeq } = options;
  const key = output.streaming ? await gateway.attachState(taskId, RESPONSE_STREAM_STATE, stream) : undefined;
  const streamNo = key === undefined ? undefined : Number(key);
  // A priming event (an id, no data) first: a stream dropped before its first message is still resumable.
  if (streamNo !== undefined) output.prime(taskEventId(taskId, streamNo, afterSeq));
  const feed = await gateway.feed(taskId, afterSeq);
  if (!feed) return { kind: "ended", lastSeq: afterSeq };
  let disconnected = false;
  output.onClose(() => {
    disconnected = true;
    feed.close();
  });
  const target = { taskId, requestId, meta: options.meta, stream };
  const followed = await followFeed(feed, {
    afterSeq,
    ...(options.deadline !== undefined && { deadline: options.deadline }),
    onEvent: (event) => {
      if (streamNo === undefined) return;
      const message = messageForEvent(event, target);
      if (message) output.notify(message, taskEventId(taskId, streamNo, event.seq));
    },
  });
  if (followed.kind === "result" && streamNo !== undefined) output.setResponseEventId(requestId, taskEventId(taskId, streamNo, followed.seq));
  // The response will not come on this stream: a resume past its last event is refused (410).
  if (followed.kind === "timeout" && key !== undefined) await gateway.attachState(taskId, RESPONSE_STREAM_STATE, { ...stream, endSeq: followed.lastSeq }, key);
  if (followed.kind === "ended" && disconnected) return { kind: "disconnected" };
  return followed;
}
