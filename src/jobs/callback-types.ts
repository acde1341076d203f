/** What `job.callback` takes and gives (types only: callback.ts implements it). */
import type { Duration } from "./step-options";

export interface CallbackOptions {
  /** How long the URL stays good and the wait lasts: seconds, or words such as "10 minutes". */
  timeout: Duration;
}

/** How a wait for a callback ended. */
export type CallbackResult = { status: "received"; body: unknown } | { status: "timed_out" };

export interface Callback {
  /** Single use, unguessable, good until the wait times out: hand it to the outside system. */
  readonly url: string;
  /** When the URL stops working (ISO 8601). */
  readonly expiresAt: string;
  /** Waits durably (the run ends; nothing is held) for the POSTed body, or the timeout. */
  wait(): Promise<CallbackResult>;
}
