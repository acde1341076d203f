/**
 * How a call from a client without the Tasks extension waits for its task (the policy's `follow`):
 * the task's progress and log lines become the call's notifications until the result, a question
 * (input-required.ts) or the inline budget. Closing the response stream cancels the request (cancellation.mdx);
 * the task too when the call policy says so (protocol/call-policy.ts: this call created it, so nobody
 * else holds its id). Nothing is kept for resumption: 2026-07-28 streams are not resumable.
 */
import type { TaskSnapshot } from "../core";
import type { PlainCallPlan } from "../protocol/call-policy";
import { followFeed, type FollowResult } from "../protocol/follow";
import type { CallNotifier } from "./call-notifications";
import type { Context20260728 } from "./context";

export async function followCall(
  ctx: Context20260728,
  snapshot: TaskSnapshot,
  notifier: CallNotifier,
  deadline: number,
  plan: Pick<PlainCallPlan, "cancelOnLeave">,
): Promise<FollowResult> {
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
    if (signal.aborted && followed.kind !== "result" && plan.cancelOnLeave) await ctx.gateway.cancel(taskId);
    return followed;
  } finally {
    signal.removeEventListener("abort", leave);
  }
}
