/**
 * How a call from a client without the Tasks extension waits for its task (the policy's `follow`):
 * the task's progress and log lines become the call's notifications until the result, a question
 * (input-required.ts) or the inline budget. Closing the response stream cancels the request (cancellation.mdx), and nobody else holds
 * this task's id, so the task is cancelled too. Nothing is kept for resumption: 2026-07-28 streams
 * are not resumable.
 */
import type { TaskSnapshot } from "../core";
import { followFeed, type FollowResult } from "../protocol/follow";
import type { CallNotifier } from "./call-notifications";
import type { Context20260728 } from "./context";

export async function followCall(ctx: Context20260728, snapshot: TaskSnapshot, notifier: CallNotifier, deadline: number): Promise<FollowResult> {
  const { taskId } = snapshot.task;
  const feed = await ctx.gateway.feed(taskId, snapshot.lastSeq);
  if (!feed) return { kind: "ended", lastSeq: snapshot.lastSeq };
  const { signal } = ctx.output;
  const leave = () => feed.close();
  if (signal.aborted) leave();
  else signal.addEventListener("abort", leave, { once: true });
  try {
    const followed = await followFeed(feed, {
      afterSeq: snapshot.lastSeq,
      deadline,
      // A question ends the wait: the call answers with it (input_required) or with the link that shows it.
      stopOnQuestion: true,
      onEvent(event) {
        if (event.type === "progress") notifier.progress(event.data);
        else if (event.type === "log") notifier.log(event.data.level, event.data.message);
      },
    });
    if (signal.aborted && followed.kind !== "result") await ctx.gateway.cancel(taskId);
    return followed;
  } finally {
    signal.removeEventListener("abort", leave);
  }
}
