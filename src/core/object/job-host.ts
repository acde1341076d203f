/**
 * The JobHost a TaskObject gives a run: progress, logs and steps go to the task's own
 * storage and event log, through the state machine, synchronously.
 */
import { plainText } from "../model/plain-text";
import { recordProgress, type Transition } from "../model/machine";
import type { FanOuts } from "../fan-out/ledger";
import type { JobHost } from "../ports";
import type { NewTaskEvent } from "../model/events";
import { isTerminal, type Progress, type TaskRecord } from "../model/record";
import type { TaskStorage } from "./storage";
import { publishPieces } from "./partial-pieces";
import type { PartialLimits } from "../model/partial";
import { taskCallbacks } from "./callbacks";
import { CALLER_STATE } from "../model/caller-state";
import { journalNames, recordRunVersion } from "./job-journal";

export interface TaskJobHostInput {
  record: TaskRecord;
  signal: AbortSignal;
  sliceDeadline: number;
  storage: TaskStorage;
  /** How much partial output the task may hold. */
  limits: PartialLimits;
  fanOuts: FanOuts;
  /** Why a new fan-out cannot be sent (the step queue is not bound), if so. */
  fanOutUnavailable?: string | undefined;
  commit(before: TaskRecord, transition: Transition): void;
  append(events: NewTaskEvent[]): void;
  /** Send the events committed so far to the task's readers now, not at the end of the turn. */
  flush(): void;
  /** Where the task's callbacks are reached: the Worker's address (PUBLIC_URL) and this object's id. */
  callbackAddress?: { base: string; objectId: string };
}

export function taskJobHost(input: TaskJobHostInput): JobHost {
  const {
    record,
    signal,
    sliceDeadline,
    storage,
    limits,
    fanOuts,
    fanOutUnavailable,
    commit,
    append,
    flush,
    callbackAddress,
  } = input;
  return {
    taskId: record.taskId,
    principal: record.principal,
    attempt: record.run.runs,
    signal,
    sliceDeadline,
    progress: (progress, total, message) => {
      const current = storage.load();
      if (!current) return;
      const p: Progress = {
        progress,
        ...(total !== undefined && { total }),
        ...(message !== undefined && { message }),
      };
      commit(current, recordProgress(current, p, Date.now()));
    },
    log: (level, message) => {
      const current = storage.load();
      if (current && !isTerminal(current.status))
        append([{ type: "log", data: { level, message: plainText(message, { lines: true }) } }]);
    },
    flush,
    fanOut: {
      status: (key) => fanOuts.status(key),
      // Automatic progress continues from whatever the task reported before the fan-out.
      start: (request) => fanOuts.start(request, storage.load()?.progress?.progress ?? 0),
      ...(fanOutUnavailable !== undefined && { unavailable: fanOutUnavailable }),
    },
    publish: (key, blocks, legacyKey) => publishPieces({ storage, limits, commit }, key, blocks, Date.now(), legacyKey),
    legacyNames: storage.recordedByRelease01,
    loadCaller: () => storage.state.lookup(CALLER_STATE.kind, CALLER_STATE.key),
    loadStep: (name) => storage.memos.get("steps", name),
    saveStep: (name, value) => {
      // Only a step's first completion is an event.
      if (storage.memos.put("steps", name, value, Date.now())) append([{ type: "step", data: { name } }]);
    },
    loadSleep: (key) => {
      const stored = storage.memos.get("sleeps", key)?.value;
      return typeof stored === "number" ? stored : undefined;
    },
    saveSleep: (key, wakeAt) => void storage.memos.put("sleeps", key, wakeAt, Date.now()),
    loadAnswer: (key) => storage.memos.get("answers", key),
    ...(callbackAddress && { callbacks: taskCallbacks(storage, callbackAddress) }),
    loadAttempt: (key) => storage.memos.get("attempts", key),
    saveAttempt: (key, value) => void storage.memos.put("attempts", key, value, Date.now()),
    recordVersion: (version) => recordRunVersion(storage, version, record.run.runs),
    journal: () => journalNames(storage),
    loadNote: (name) => storage.memos.get("notes", name),
    saveNote: (name, value) => void storage.memos.put("notes", name, value, Date.now()),
  };
}
