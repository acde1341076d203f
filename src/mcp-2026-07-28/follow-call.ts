/**
 * Waits on a task for a client that did not declare the Tasks extension: its progress and log
 * lines become the call's notifications until the result, the inline budget, or the client leaving.
 * Nothing is registered for resumption: 2026-07-28 streams are not resumable.
 */
import type { TaskOutcome } from "../tasks/model";
import { outcomeOf } from "../tasks/snapshot-events";
import type { CallNotifier } from "./call-notifications";
import type { ModernContext } from "./context";

export type InlineWait =
  | { kind: "result"; outcome: TaskOutcome }
  | { kind: "timeout" }
  /** The task is gone (expired) or its feed closed without a result. */
  | { kind: "gone" }
  /** The client closed the stream or dropped the request: the call is cancelled. */
  | { kind: "left" };

export async function waitInline(ctx: ModernContext, taskId: string, notifier: CallNotifier, deadline: number): Promise<InlineWait> {
  const feed = await ctx.gateway.feed(taskId, 0);
  if (!feed) return { kind: "gone" };
  const { signal } = ctx.output;
  const leave = () => feed.close();
  signal.addEventListener("abort", leave, { once: true });
  try {
    for (;;) {
      if (signal.aborted) return { kind: "left" };
      const remaining = deadline - Date.now();
      if (remaining <= 0) return { kind: "timeout" };
      const event = await feed.next(remaining);
      if (event === undefined) return { kind: "timeout" };
      if (event === null) return signal.aborted ? { kind: "left" } : { kind: "gone" };
      if (event.type === "result") return { kind: "result", outcome: outcomeOf(event.data) };
      if (event.type === "progress" && typeof event.data["progress"] === "number") {
        notifier.progress({
          progress: event.data["progress"],
          ...(typeof event.data["total"] === "number" && { total: event.data["total"] }),
          ...(typeof event.data["message"] === "string" && { message: event.data["message"] }),
        });
      }
      if (event.type === "log" && typeof event.data["level"] === "string" && typeof event.data["message"] === "string") {
        notifier.log(event.data["level"], event.data["message"]);
      }
    }
  } finally {
    signal.removeEventListener("abort", leave);
    feed.close();
  }
}
