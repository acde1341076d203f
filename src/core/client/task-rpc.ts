/**
 * The shapes of the TaskObject's RPC interface: what a caller sends to create a task, and what it
 * gets back (a TaskSnapshot, or the outcome of a cancel or an answer). The gateway and the
 * adapters read these; only the TaskObject builds them.
 */
import type { AdapterStateEntry } from "../object/adapter-state";
import type { InputQuestion } from "../model/questions";
import type { NewTaskInput } from "../model/machine";
import type { WireEvent } from "../../streams/feed-frames";
import type { TaskMeta } from "../model/meta";
import { pendingInputs, type Progress, type TaskOutcome, type TaskRecord } from "../model/record";
import { estimatedEndAt } from "../model/poll-interval";
import { toTaskView, type TaskView } from "../model/view";
import type { PartialPiece, PartialSummary } from "../model/partial";
import type { StepAttemptsView } from "../model/step-attempts";
import type { JournalView } from "../model/job-versions";

export interface TaskSnapshot {
  task: TaskView;
  tool: string;
  meta: TaskMeta;
  progress?: Progress;
  outcome?: TaskOutcome;
  /** The questions the task waits on, by key, while it is `input_required`. */
  inputRequests?: Record<string, InputQuestion>;
  /** While it works: when it should be done (ms), from its pace at work (poll-interval.ts, estimatedEndAt). */
  estimatedEndAt?: number;
  /** The partial output so far, summed up (absent until the first piece). */
  partial?: PartialSummary;
  /** The pieces after `piecesAfter`, in order: only when the reader asked for them (GetOptions). */
  pieces?: PartialPiece[];
  piecesAfter?: number;
  /** The steps given options, with their attempts (model/step-attempts.ts): absent when it has none. */
  steps?: StepAttemptsView[];
  /** The versions of its tool its runs ran, and a mismatch of its journal it was told of: absent when neither. */
  journal?: JournalView;
  lastSeq: number;
}

/** What a reader of a task may ask for beyond its snapshot. */
export interface GetOptions {
  /** The partial pieces numbered after this one (0: all of them). */
  piecesAfter?: number;
}

/** `createdAt` (ms) is the gateway's, so the principal's index and the task itself agree on it. */
export type CreateTaskInput = Omit<NewTaskInput, "defaultTtlMs" | "maxTtlMs" | "pollIntervalMs" | "dispatchGraceMs"> & {
  createdAt?: number;
};
export interface CreateOptions {
  /** Adapter state to keep with a task this call creates (written with it, in the same turn). */
  state?: readonly AdapterStateEntry[];
  /**
   * Start the job in this call, right after the task is written, instead of from the alarm; and
   * wait up to `waitMs` for its first run to end (a plain call: most quick jobs are done by then).
   * Without it the task waits queued for its queue message or DISPATCH_GRACE_MS.
   */
  run?: { waitMs: number };
  /**
   * Created under an admission slot (slot-lease.ts): the index has not admitted it, so the object
   * reports it there itself, before answering (or, for a call that ended in its first moments, when
   * it is written).
   */
  slotted?: boolean;
}

/**
 * What create answers: the task as this call created it (queued), or as it was if it existed
 * already; with `ended` when the job ran to its end within the call's wait (the task as it ended,
 * and its event log up to the result).
 */
export interface CreatedTask extends TaskSnapshot {
  /**
   * This call wrote the task (and its adapter state). The object is the one arbiter: two calls that
   * race for one id (an idempotency key's repeat arriving before the first call's create) both reach
   * it, and only the first is told it created the task, so only that one owns its cancel-on-leave.
   */
  created: boolean;
  /** Events as stored (data still JSON text: RPC types cannot carry the typed union), decoded by the gateway. */
  ended?: { snapshot: TaskSnapshot; events: WireEvent[] };
}
export type CancelOutcome = { ok: true; snapshot: TaskSnapshot } | { ok: false; reason: "not_found" | "terminal" };

/**
 * What became of answers to a task's questions (every path a person's answer takes ends here):
 * `accepted` keys were stored and wake the job once nothing else is pending; `ignored` keys name no
 * pending question (never asked, or already answered), as the Tasks extension asks. A task that
 * ended says so (`terminal`); an answer that breaks its form stores nothing (`invalid`, the field
 * named in `message`); an unknown, expired or another principal's task is `not_found`.
 */
export type AnswerOutcome =
  | { ok: true; accepted: string[]; ignored: string[]; snapshot: TaskSnapshot }
  | { ok: false; reason: "not_found" }
  | { ok: false; reason: "terminal"; snapshot: TaskSnapshot }
  | { ok: false; reason: "invalid"; key: string; message: string; snapshot: TaskSnapshot };

const withEnd = (end: number | undefined): { estimatedEndAt?: number } =>
  end === undefined ? {} : { estimatedEndAt: Math.round(end) };

/** The snapshot of `record`, whose latest event is `lastSeq`, as seen at `now`. */
export function taskSnapshot(
  record: TaskRecord,
  lastSeq: number,
  now: number,
  steps: StepAttemptsView[] = [],
  journal?: JournalView,
): TaskSnapshot {
  return {
    task: toTaskView(record, now),
    tool: record.tool,
    meta: record.meta,
    ...(record.progress && { progress: record.progress }),
    ...(record.outcome && { outcome: record.outcome }),
    ...(record.status === "input_required" && { inputRequests: pendingInputs(record) }),
    ...(record.status === "working" && withEnd(estimatedEndAt(record))),
    ...(record.partial && { partial: record.partial }),
    ...(steps.length > 0 && { steps }),
    ...(journal && { journal }),
    lastSeq,
  };
}
