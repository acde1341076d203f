/**
 * How a plain `tools/call` (one whose client takes no task) treats its task, in both eras: whether
 * it waits for it, and whether the client leaving the call stops it. One place, so the eras agree.
 */
import { isTerminal, type TaskStatus } from "../core";

export interface PlainCallPlan {
  /**
   * Wait for the task's result (up to the inline budget). Not for a task that has ended, nor for one
   * that already waits for a person this call cannot ask (a repeated call found it by its key):
   * nothing would happen before the deadline, so the call answers at once.
   */
  wait: boolean;
  /**
   * Stop at the task's first question, which nobody on this call's side can answer.
   */
  stopOnQuestion: boolean;
  /**
   * The client leaving the call while it is open (2026: closing the response; 2025: a
   * `notifications/cancelled` naming it) cancels the task. Only a task this very call created:
   * one found by its idempotency key is another call's, and may be followed elsewhere.
   */
  cancelOnLeave: boolean;
}

export interface PlainCallFacts {
  /** This call created the task (not found by its idempotency key). */
  created: boolean;
  /** This call can put the task's questions to its client (2025: a stream to a client that declared elicitation). */
  canAsk: boolean;
}

/** The plan for a plain call that finds its task in `status` (just created, or found by its key). */
export function planPlainCall(status: TaskStatus, facts: PlainCallFacts): PlainCallPlan {
  return {
    wait: !isTerminal(status) && !(status === "input_required" && !facts.canAsk),
    stopOnQuestion: !facts.canAsk,
    cancelOnLeave: facts.created,
  };
}
