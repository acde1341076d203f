/**
 * A task's callbacks in its TaskObject (model/callbacks.ts): the port a run opens them through, and
 * what a POST to one does: its body stored once, and a job asleep until the callback's expiry woken now.
 */
import {
  CallbackBodySchema,
  CallbackRowSchema,
  callbackPath,
  judgeCallback,
  newCallbackToken,
  type CallbackOutcome,
  type CallbackProof,
} from "../model/callbacks";
import { isTerminal, type TaskRecord } from "../model/record";
import type { Transition } from "../model/machine";
import type { CallbackPort } from "../ports";
import { wakeRun } from "./engine-reports";
import type { TaskStorage } from "./storage";

export function taskCallbacks(storage: TaskStorage, address: { base: string; objectId: string }): CallbackPort {
  return {
    open(name, expiresAt, signed) {
      const row = { token: newCallbackToken(), expiresAt, ...(signed && { signed }) };
      const fresh = storage.memos.put("callbacks", name, row, Date.now());
      // The first one stored wins: a replay (or a duplicate run) gets the same URL back.
      const stored = CallbackRowSchema.parse(storage.memos.get("callbacks", name)?.value);
      const { objectId } = address;
      const url = `${address.base}${callbackPath(objectId, name, stored.token)}`;
      return { url, expiresAt: stored.expiresAt, fresh, signed: stored.signed === true, objectId, token: stored.token };
    },
    received(name) {
      const row = CallbackBodySchema.safeParse(storage.memos.get("callbackBodies", name)?.value);
      return row.success ? { body: row.data.body } : undefined;
    },
  };
}

export interface DeliverCallbackDeps {
  storage: TaskStorage;
  commit(before: TaskRecord, transition: Transition): Promise<void>;
  /**
   * Starts the woken job's run in this request (its job after the answer), so the wake costs the
   * POST alone, no alarm; a run that cannot start here is left to the alarm, moved to now.
   */
  runNow(): Promise<void>;
  /** A run is alive: it ends its wait at once if it yields now (runs.ts, nudge). */
  nudgeRun(): void;
}

/** A POST of `body` (JSON, already checked) with `proof` to callback `name` of the task `record`. */
export async function deliverCallback(
  record: TaskRecord | undefined,
  name: string,
  proof: CallbackProof,
  body: unknown,
  deps: DeliverCallbackDeps,
): Promise<CallbackOutcome> {
  if (!record) return "unknown";
  const { storage } = deps;
  const now = Date.now();
  const used = storage.memos.get("callbackBodies", name) !== undefined;
  const refused = judgeCallback(storage.memos.get("callbacks", name)?.value, proof, used, now);
  if (refused) return refused;
  // A task that ended has no job left to wake; its callback is spent all the same.
  if (isTerminal(record.status)) return "expired";
  if (!storage.memos.put("callbackBodies", name, { body, at: now }, now)) return "used";
  const { phase } = record.run;
  if (phase === "running") deps.nudgeRun();
  if (phase === "sleeping" || phase === "backoff") {
    const woken = wakeRun(record, now);
    if (woken.record !== record) {
      await deps.commit(record, woken);
      await deps.runNow();
    }
  }
  return "received";
}
