/**
 * A person's answers reaching the TaskObject (every path ends in TaskObject.answer): checked by the
 * pure transition (model/input-wait.ts), stored once beside the steps under each question's key, and
 * committed with the transition in one synchronous turn, so both are stored or neither is.
 */
import { answerInputs } from "../model/input-wait";
import type { Transition } from "../model/machine";
import type { AnswerOutcome, TaskSnapshot } from "../client/task-rpc";
import type { TaskRecord } from "../model/record";
import type { TaskStorage } from "./storage";

export interface AnswerDeps {
  storage: TaskStorage;
  commit(before: TaskRecord, transition: Transition): Promise<void>;
  snapshot(record: TaskRecord): TaskSnapshot;
  /** The task's clock: when an answer arrived decides whether a person could have given it. */
  now(): number;
  /** How soon after its question an answer can only be the client's own (PERSON_FLOOR_MS). */
  floorMs: number;
}

/** Applies `responses` (`{ <key>: { action, content? } }`) to the live `record` (undefined: no such task). */
export async function answerTask(
  record: TaskRecord | undefined,
  responses: Record<string, unknown>,
  deps: AnswerDeps,
): Promise<AnswerOutcome> {
  if (!record) return { ok: false, reason: "not_found" };
  const now = deps.now();
  const result = answerInputs(record, responses, now, deps.floorMs);
  if (!result.ok) {
    return result.reason === "terminal"
      ? { ok: false, reason: "terminal", snapshot: deps.snapshot(record) }
      : { ...result, snapshot: deps.snapshot(record) };
  }
  for (const { key, answer } of result.accepted) deps.storage.memos.put("answers", key, answer, now);
  await deps.commit(record, result.transition);
  return {
    ok: true,
    accepted: result.accepted.map((a) => a.key),
    ignored: result.ignored,
    snapshot: deps.snapshot(result.transition.record),
  };
}
