/**
 * Follow a task on a response stream: register the stream (so its event ids can be resumed, and so
 * the task's session hears on its GET stream only what this stream does not carry), ask the
 * questions that wait unheard, forward the events it carries as MCP messages with routable ids,
 * until the task's result, a deadline, a question nobody here can answer, or the client leaves.
 */
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import { isOpenAt, type StateSpan, type InputQuestion, type TaskEvent, type TaskMeta } from "../core";
import { followFeed, type FollowResult } from "../protocol/follow";
import { taskEventId } from "../streams/event-ids";
import type { McpContext } from "./context";
import { sessionStub } from "./session";
import { messageForEvent, questionRequest } from "./task-messages";
import {
  ASKED_LIVE_STATE,
  AskedLiveSchema,
  ownSessionStream,
  RESPONSE_STREAM_STATE,
  type ResponseStream,
} from "./task-streams";

export type Followed = FollowResult | { kind: "disconnected" };

export interface FollowOptions {
  taskId: string;
  requestId: RequestId;
  stream: ResponseStream;
  meta: TaskMeta;
  afterSeq: number;
  deadline?: number;
  /** The stream's key if it was registered with the task when this call created it (open from its first event). */
  registered?: string;
  /** The questions the task waited on when the stream opened (asked here first, unless the client already heard them live). */
  pending?: Record<string, InputQuestion>;
  /**
   * A plain call: it ends at a question it cannot pass on (its client cannot be asked, or not on
   * this answer), answering with the link that shows it. A `tasks/result` waits for the result.
   */
  endAtQuestion?: boolean;
}

export async function followTask(ctx: McpContext, options: FollowOptions): Promise<Followed> {
  const { gateway, output } = ctx;
  const { taskId, requestId, stream, afterSeq, meta } = options;
  let key: string | undefined;
  let spans: StateSpan[] = [[0, null]];
  if (output.streaming) {
    if (options.registered !== undefined) key = options.registered;
    else {
      const opened = await gateway.openState(taskId, RESPONSE_STREAM_STATE, stream);
      key = opened?.key;
      if (opened) spans = opened.spans;
    }
  }
  const streamNo = key === undefined ? undefined : Number(key);
  // A priming event (an id, no data) first: a stream dropped before its first message is still resumable.
  if (streamNo !== undefined) output.prime(taskEventId(taskId, streamNo, afterSeq));
  const own = ownSessionStream(stream, meta);
  if (streamNo !== undefined && stream.questions)
    await askPending(ctx, options, own, taskEventId(taskId, streamNo, afterSeq));

  const feed = await gateway.feed(taskId, afterSeq);
  if (!feed) return { kind: "ended", lastSeq: afterSeq };
  let disconnected = false;
  output.onClose(() => {
    disconnected = true;
    feed.close();
  });
  const target = { taskId, requestId, meta, stream, ...(own && { openAt: (seq: number) => isOpenAt(spans, seq) }) };
  const forward = (event: TaskEvent) => {
    if (streamNo === undefined) return;
    const message = messageForEvent(event, target);
    if (message) output.notify(message, taskEventId(taskId, streamNo, event.seq));
  };
  const followed = await followFeed(feed, {
    afterSeq,
    ...(options.deadline !== undefined && { deadline: options.deadline }),
    stopOnQuestion: options.endAtQuestion === true && (!stream.questions || streamNo === undefined),
    onEvent: forward,
  });
  if (followed.kind === "result" && streamNo !== undefined)
    output.setResponseEventId(requestId, taskEventId(taskId, streamNo, followed.seq));
  // The server ends this stream before the response (the inline wait ran out, or a question nobody
  // here can answer): from here on the session's GET stream carries what it did, and a resume past
  // its last event is refused (410). A stream whose client left is NOT closed: it still carries its
  // messages, which its resume (Last-Event-ID) replays, so no message is handed to the GET stream at
  // a moment only the dead connection's timing decides (docs/streams.md, "Who hears what").
  // A stream registered here has one span until a resume renews it: then its client reads it
  // elsewhere, this request is a dead connection's, and the stream is not closed behind the resume.
  if ((followed.kind === "timeout" || followed.kind === "asked") && key !== undefined) {
    const closedAt = await gateway.closeState(taskId, RESPONSE_STREAM_STATE, key, 1);
    if (closedAt !== undefined) {
      // Events committed after the last one followed and before the close were left to this stream
      // by the GET stream: carry them before the response, and let a resume replay up to the close.
      if (closedAt > followed.lastSeq && !disconnected)
        await carryUntil(gateway, taskId, followed.lastSeq, closedAt, forward);
      await gateway.attachState(
        taskId,
        RESPONSE_STREAM_STATE,
        { ...stream, endSeq: Math.max(closedAt, followed.lastSeq) },
        key,
      );
    }
  }
  if (followed.kind === "ended" && disconnected) return { kind: "disconnected" };
  return followed;
}

/** How long a closing stream waits for events already committed before its close (they are replayed at once). */
const CARRY_WAIT_MS = 2000;

/** Forwards the task's events in (afterSeq, untilSeq]: all are committed, so the feed replays them at once. */
async function carryUntil(
  gateway: McpContext["gateway"],
  taskId: string,
  afterSeq: number,
  untilSeq: number,
  forward: (event: TaskEvent) => void,
): Promise<void> {
  const rest = await gateway.feed(taskId, afterSeq);
  if (!rest) return;
  try {
    for (let event = await rest.next(CARRY_WAIT_MS); event; event = await rest.next(CARRY_WAIT_MS)) {
      if (event.seq > untilSeq || event.type === "result") break;
      forward(event);
      if (event.seq === untilSeq) break;
    }
  } finally {
    rest.close();
  }
}

/**
 * Asks the questions the task waited on when this stream opened: the client may never have heard
 * them (a `tasks/result` called after the task asked). Not again to a client whose session's GET
 * stream already handed them to a reader, live or in a resume's replay: that client is answering already.
 */
async function askPending(ctx: McpContext, options: FollowOptions, own: boolean, eventId: string): Promise<void> {
  const pending = Object.entries(options.pending ?? {});
  if (pending.length === 0) return;
  const heard = new Set<string>();
  if (own && ctx.sessionId !== undefined) {
    const noted = AskedLiveSchema.safeParse(
      await ctx.gateway.lookupState(options.taskId, ASKED_LIVE_STATE, ctx.sessionId),
    );
    if (noted.success) {
      for (const key of noted.data.keys) heard.add(key);
      const onGetStream = Object.entries(noted.data.seqs).filter(([key]) => pending.some(([asked]) => asked === key));
      const through =
        onGetStream.length > 0
          ? await sessionStub(ctx.env, ctx.gateway.principal, ctx.sessionId).deliveredThrough()
          : 0;
      for (const [key, seq] of onGetStream) if (seq <= through) heard.add(key);
    }
  }
  for (const [key, question] of pending) {
    if (!heard.has(key)) ctx.output.notify(questionRequest(options.taskId, key, question), eventId);
  }
}
