/**
 * One fanned-out item's life, as pure transitions: sent as a queue message, claimed by a consumer,
 * done or failed, or sent again when nothing was heard of it in time (a lost message, a consumer
 * that died). Like model/machine.ts, a no-op returns the same object, so callers skip writes by identity.
 */
import { backoff } from "../model/backoff";

export type FanOutItemState = "pending" | "running" | "done" | "failed";

export interface FanOutItem {
  index: number;
  state: FanOutItemState;
  /** Claims so far: the attempt number the step function sees. */
  claims: number;
  /** Thrown errors so far, compared with the retry policy. */
  failures: number;
  /** Runs lost with their consumer (its lease ran out) so far. */
  lost: number;
  /** Queue messages sent for it. */
  sends: number;
  /**
   * By when we expect to hear of it: a pending item is sent (again) once this passes, and a running
   * item's lease ends here. 0 means "send now".
   */
  dueAt: number;
  /** The last error, for the log and the final failure. */
  error?: string;
}

export interface ItemPolicy {
  /** A running item's lease, and the first wait for an unclaimed message before it is sent again. */
  leaseMs: number;
  /** Attempts (thrown errors, or runs lost with their consumer) before the item fails for good. */
  maxAttempts: number;
  retryBaseSeconds: number;
}

export const isFinished = (item: FanOutItem): boolean => item.state === "done" || item.state === "failed";

export const newItem = (index: number): FanOutItem => ({
  index,
  state: "pending",
  claims: 0,
  failures: 0,
  lost: 0,
  sends: 0,
  dueAt: 0,
});

/**
 * How long to wait for an unclaimed message before sending it again: the lease, doubling with each
 * send (at most an hour). Local queues deliver one batch at a time, so a message can sit legitimately
 * behind a batch of long items; the doubling keeps the copies that costs to a few.
 */
export const redeliveryMs = (sends: number, leaseMs: number): number => backoff(Math.max(1, sends), leaseMs, 3_600_000);

const lostMessage = (lost: number): string =>
  `its consumer stopped responding ${lost} time${lost === 1 ? "" : "s"} (the invocation crashed, ran out of memory or exceeded its CPU limit)`;

export type ClaimOutcome = "run" | "finished" | "busy" | "lost";

/**
 * A consumer wants to run the item. A running item whose lease is still good is busy elsewhere (a
 * duplicate delivery); one whose lease ran out was lost with its consumer and is taken over, and
 * after `maxAttempts` such losses it fails instead ("lost").
 */
export function claimItem(
  item: FanOutItem,
  policy: ItemPolicy,
  now: number,
): { item: FanOutItem; outcome: ClaimOutcome } {
  if (isFinished(item)) return { item, outcome: "finished" };
  if (item.state === "running" && item.dueAt > now) return { item, outcome: "busy" };
  const lost = item.state === "running" ? item.lost + 1 : item.lost;
  if (lost >= policy.maxAttempts)
    return { item: { ...item, state: "failed", lost, error: lostMessage(lost) }, outcome: "lost" };
  return {
    item: { ...item, state: "running", claims: item.claims + 1, lost, dueAt: now + policy.leaseMs },
    outcome: "run",
  };
}

/** The consumer running the item is alive: extend its lease, writing only once a third of it is used. */
export function renewItem(item: FanOutItem, policy: ItemPolicy, now: number): FanOutItem {
  if (item.state !== "running" || item.dueAt - now > (policy.leaseMs * 2) / 3) return item;
  return { ...item, dueAt: now + policy.leaseMs };
}

/** A result arrived. The first one is kept, from whichever delivery; a later one changes nothing. */
export function completeItem(item: FanOutItem): FanOutItem {
  return isFinished(item) ? item : { ...item, state: "done", error: undefined };
}

export type FailOutcome = { kind: "retry"; delaySeconds: number } | { kind: "final" } | { kind: "ignored" };

/**
 * The step threw. Retried with exponential backoff through the queue (the consumer asks for the
 * delay), until the policy is exhausted or the error is permanent.
 */
export function failItem(
  item: FanOutItem,
  message: string,
  permanent: boolean,
  policy: ItemPolicy,
  now: number,
): { item: FanOutItem; outcome: FailOutcome } {
  if (isFinished(item)) return { item, outcome: { kind: "ignored" } };
  const failures = item.failures + 1;
  if (permanent || failures >= policy.maxAttempts) {
    const error = permanent ? message : `${message} (gave up after ${failures} attempt${failures === 1 ? "" : "s"})`;
    return { item: { ...item, state: "failed", failures, error }, outcome: { kind: "final" } };
  }
  const delaySeconds = backoff(failures, policy.retryBaseSeconds, 3600);
  // The retried message is due after its delay; only past that (plus a lease) is it presumed lost.
  const dueAt = now + delaySeconds * 1000 + policy.leaseMs;
  return {
    item: { ...item, state: "pending", failures, error: message, dueAt },
    outcome: { kind: "retry", delaySeconds },
  };
}

/** The queue gave up on the item's message (the dead-letter queue): it fails for good. */
export function giveUpItem(item: FanOutItem, message: string): FanOutItem {
  return isFinished(item)
    ? item
    : { ...item, state: "failed", error: item.error ? `${message}; last error: ${item.error}` : message };
}

/**
 * Nothing was heard of the item by its due time: send its message (again). A running item's consumer
 * is presumed dead, which counts as a lost attempt; after `maxAttempts` of those it fails instead.
 */
export function resendItem(item: FanOutItem, policy: ItemPolicy, now: number): { item: FanOutItem; send: boolean } {
  if (isFinished(item) || item.dueAt > now) return { item, send: false };
  const lost = item.state === "running" ? item.lost + 1 : item.lost;
  if (lost >= policy.maxAttempts)
    return { item: { ...item, state: "failed", lost, error: lostMessage(lost) }, send: false };
  const sends = item.sends + 1;
  return {
    item: { ...item, state: "pending", lost, sends, dueAt: now + redeliveryMs(sends, policy.leaseMs) },
    send: true,
  };
}
