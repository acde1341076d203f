/**
 * What the core needs from the layers above it, and what it offers them. The composition root
 * (src/index.ts) wires the implementations in: the job runner (src/jobs) and the observers
 * (webhooks, the 2025 adapter's session streams). The core imports none of them.
 */
import type { AdapterStateWriter } from "./object/adapter-state";
import type { FanOutRequest, FanOutStatus } from "./fan-out/ledger";
import type { LogLevel, TaskEvent } from "./model/events";
import type { TaskRecord, TaskStatus } from "./model/record";
import type { RunOutcome } from "./model/run-outcome";
import type { RunVersions } from "./model/job-versions";
import type { JsonObject } from "../json";
import type { PrincipalIndexes } from "./principal-index-port";
import type { TaskQueues } from "./queue-port";
import type { PartialBlock, PublishOutcome } from "./model/partial-types";

/** What a run may do to its task: the TaskObject's storage and log, or memory for inline calls. */
export interface JobHost {
  readonly taskId: string;
  /** Whose task it is (absent inline): an engine outside the TaskObject addresses the task by it. */
  readonly principal?: string;
  readonly attempt: number;
  readonly signal: AbortSignal;
  /** After this instant a run yields at its next sleep instead of waiting. */
  readonly sliceDeadline: number;
  /**
   * What the task keeps of its caller (model/caller-state.ts), as it was stored: sealed or a
   * reference, opened by the runner (src/callers). Absent inline and for a task created without one.
   */
  loadCaller?(): JsonObject | undefined;
  /** The task was recorded by release 0.1, whose names for sleeps, fan-outs and publishes it may hold (src/jobs/legacy-names.ts). */
  readonly legacyNames?: boolean;
  progress(progress: number, total?: number, message?: string): void;
  log(level: LogLevel, message: string): void;
  /** A step's stored result, by the step's name. */
  loadStep(name: string): { value: unknown } | undefined;
  /** Store a step result; emits the `step` event the first time only. */
  saveStep(name: string, value: unknown): void;
  /** A durable sleep's wake-up time (ms since the epoch), by the sleep's durable name. */
  loadSleep(key: string): number | undefined;
  saveSleep(key: string, wakeAt: number): void;
  /** The answer to question `key`, once one was accepted. */
  loadAnswer(key: string): { value: unknown } | undefined;
  /** A row of the journal of step attempts (model/step-attempts.ts), by its key. */
  loadAttempt(key: string): { value: unknown } | undefined;
  /** Stores a journal row once (a later write of the same key is ignored, as a duplicate run's). */
  saveAttempt(key: string, value: unknown): void;
  /** What an engine outside the object (a Workflow) keeps about its run, by name. */
  loadNote(name: string): { value: unknown } | undefined;
  saveNote(name: string, value: unknown): void;
  /**
   * Records `blocks` as the task's next partial pieces, once per `key` (a replay's repeat is a
   * `duplicate`); absent inline, where there is no task to hold them.
   */
  publish?(key: string, blocks: readonly PartialBlock[], legacyKey?: string): PublishOutcome;
  /** The job is about to wait (a sleep): deliver the events it has reported so far now. */
  flush?(): void;
  /** Durable fan-out through the step queue; absent for inline calls, which run the items in place. */
  fanOut?: FanOutPort;
  /** The task's callbacks; absent inline, and when the Worker's address is not set (PUBLIC_URL). */
  callbacks?: CallbackPort;
  /**
   * Records that this run runs `version` of its tool (model/job-versions.ts); answers the version the
   * task started on, and the one its runs ran before when this run is the first on another. Absent inline.
   */
  recordVersion?(version: number): RunVersions;
  /** Every durable operation the task's job recorded so far, by kind and durable name; absent inline. */
  journal?(): JournalName[];
}

/** The kinds of durable operation a job's journal holds under the names its author gave them. */
export type JournalKind = "step" | "answer" | "callback";
export interface JournalName {
  kind: JournalKind;
  key: string;
}

/** What `job.callback` needs of the task (model/callbacks.ts). */
export interface CallbackPort {
  /**
   * Opens callback `name`, expiring at `expiresAt`, once: a later call gets the first one back (`fresh`
   * false). `signed`: its URL will carry a signature (then only that URL completes it); `url` is
   * the unsigned one, `objectId` and `token` what a signature covers with the name and expiry.
   */
  open(name: string, expiresAt: number, signed: boolean): OpenedCallback;
  /** What was POSTed to it, once something was. */
  received(name: string): { body: unknown } | undefined;
}

export interface OpenedCallback {
  url: string;
  expiresAt: number;
  fresh: boolean;
  signed: boolean;
  objectId: string;
  token: string;
}

/** What `job.fanOut` needs of the task: its fan-outs by key (fan-out/ledger.ts). */
export interface FanOutPort {
  status(key: string): FanOutStatus | undefined;
  /** Why no fan-out can start here (the step queue is not bound): a new fan-out fails its task with these words. */
  unavailable?: string;
  /** Stores a new fan-out; its messages go out when the run has ended and the job waits. */
  start(request: FanOutRequest): void;
}

/** Runs one slice of the job of tool `tool`. Never throws. */
export type JobRunner = (tool: string, args: JsonObject, host: JobHost) => Promise<RunOutcome>;

export interface TaskObserverContext<E extends object = object> {
  /**
   * The Worker's env, handed through untouched: observers live above the core and reach their own
   * bindings with it (E: the bindings the TaskObject class above was built with).
   */
  env: E;
  record: TaskRecord;
  /** The events just appended, in order. */
  events: TaskEvent[];
  /** The task's status before this commit; absent for a new task (its first status is then a change). */
  previousStatus?: TaskStatus;
  /**
   * The adapters' state kept with this task (a session's subscription, which streams were open when,
   * say). An observer may also note what it did there (a question delivered to a live reader).
   */
  state: AdapterStateWriter;
  /**
   * The observer handed the task's pending questions to a reader (the 2025 GET stream's
   * `elicitation/create`): their first receipt is noted now (docs/human-in-the-loop.md, "Who answered").
   */
  received(): void;
}

/**
 * Hears about a task's events once they are stored. Observers must not throw (failures are
 * logged) and must not delay the task itself.
 */
export type TaskObserver<E extends object = object> = (context: TaskObserverContext<E>) => Promise<void>;

/** What a TaskObject is built with (src/index.ts). */
export interface TaskObjectWiring<E extends object = object> {
  runJob: JobRunner;
  observers: readonly TaskObserver<E>[];
  /** Where the task reports itself: its principal's index (principal-index-port.ts). */
  principalIndexes: PrincipalIndexes;
  /** Where its fan-outs' item messages go: the step queue (queue-port.ts). */
  queues: Pick<TaskQueues, "steps">;
  /** The task's ttl ran out and it was deleted (no event marks it): stop what still works for it elsewhere. */
  onExpired?: (env: E, record: TaskRecord) => Promise<void>;
}
