/**
 * Following a task's feed until its result or a deadline: the one loop behind a plain call's
 * inline wait, a running `tasks/result` and the check-back tools' short wait.
 */
import { outcomeOf, type TaskFeed, type TaskEvent, type TaskOutcome } from "../core";

export type FollowResult =
  /** The task ended; `seq` is its result event. */
  | { kind: "result"; outcome: TaskOutcome; seq: number }
  /** The deadline passed first; `lastSeq` is the last event seen. */
  | { kind: "timeout"; lastSeq: number }
  /** The task asked a question this follower cannot pass on (`stopOnQuestion`): answer with a link that shows it. */
  | { kind: "asked"; lastSeq: number }
  /** The feed ended without a result (the task expired, or the reader closed the feed). */
  | { kind: "ended"; lastSeq: number };

export interface FollowOptions {
  /** The feed's starting point (its first event follows it). */
  afterSeq: number;
  /** Stop waiting then (ms since the epoch); no deadline waits for the result. */
  deadline?: number;
  /** Every event before the result, as it arrives. */
  onEvent?(event: TaskEvent): void;
  /** Stop at the task's first question: nobody on this follower's side can answer it. */
  stopOnQuestion?: boolean;
}

/** Reads `feed` until its result, the deadline or its end, then closes it. */
export async function followFeed(feed: TaskFeed, options: FollowOptions): Promise<FollowResult> {
  let lastSeq = options.afterSeq;
  try {
    for (;;) {
      const remaining = options.deadline === undefined ? undefined : options.deadline - Date.now();
      if (remaining !== undefined && remaining <= 0) return { kind: "timeout", lastSeq };
      const event = await feed.next(remaining);
      if (event === undefined) return { kind: "timeout", lastSeq };
      if (event === null) return { kind: "ended", lastSeq };
      lastSeq = event.seq;
      if (event.type === "result") return { kind: "result", outcome: outcomeOf(event.data), seq: event.seq };
      options.onEvent?.(event);
      if (event.type === "question" && options.stopOnQuestion) return { kind: "asked", lastSeq };
    }
  } finally {
    feed.close();
  }
}
