/**
 * The task core's one face: everything the rest of src/ may import from src/core, and nothing more
 * (.dependency-cruiser.cjs, rule core-through-its-face). The wings behind it: docs/architecture.md.
 */

// The model: a task's data, its events and meta, the questions a job asks, ids (pure).
export { backoff } from "./model/backoff";
export { canonicalJson, sha256Base64url } from "./model/call-fingerprint";
export { outcomeOf, type LogLevel, type TaskEvent } from "./model/events";
export {
  isTaskId,
  newTaskId,
  parseTaskResourceUri,
  principalObjectName,
  TASK_RESOURCE_TEMPLATE,
  taskObjectName,
  taskResourceUri,
} from "./model/ids";
export { CORRELATION_ID_META, echoMeta, type TaskMeta } from "./model/meta";
export {
  isPerTaskPrincipal,
  PER_TASK_NO_IDEMPOTENCY_KEY,
  PER_TASK_NO_LISTING,
  PER_TASK_PRINCIPAL,
} from "./model/per-task";
export { CALLER_STATE } from "./model/caller-state";
export {
  elicitationRequest,
  isInputKey,
  questionProblem,
  type AskedQuestion,
  type InputAnswer,
  type InputQuestion,
  type InputRequest,
} from "./model/questions";
export {
  MAX_PARTIAL_BYTES,
  MAX_PARTIAL_PIECES,
  MAX_PIECE_BYTES,
  parseBlocks,
  PartialBlockSchema,
  pieceWords,
  type PartialBlock,
  type PartialPiece,
  type PartialSummary,
  type PublishOutcome,
} from "./model/partial-types";
export { plainText } from "./model/plain-text";
export { clipMiddle } from "./model/clip";
export { MAX_CALLBACK_BODY_BYTES, type CallbackOutcome } from "./model/callbacks";
export {
  AttemptEndSchema,
  AttemptStartSchema,
  attemptEndKey,
  attemptStartKey,
  MAX_ATTEMPT_ERROR_CHARS,
  type AttemptEnd,
  type StepAttemptsView,
} from "./model/step-attempts";
export {
  isTerminal,
  pendingInputs,
  type Progress,
  type TaskOutcome,
  type TaskRecord,
  type TaskStatus,
} from "./model/record";
export type { TaskEntry, TaskEntryPage, TaskPage, TaskView } from "./model/view";

// The client side: what the adapters and the Worker call to reach a task.
export { TaskGateway, type GatewayBindings, type TaskFeed, type TaskObjectsEnv } from "./client/gateway";
export { JobMessageSchema } from "./client/job-message";
export type { SlotGrant } from "./client/slot-lease";
export { applyTaskEvent } from "./client/snapshot-fold";
export type { AnswerOutcome, GetOptions, TaskSnapshot } from "./client/task-rpc";

// The TaskObject, built by the composition root, and what its adapters and engines read of it.
export {
  isOpenAt,
  STATE_SPANS_FIELD,
  type AdapterStateEntry,
  type OpenStateEntry,
  type StateSpan,
} from "./object/adapter-state";
export type { EngineReport, ReportReply } from "./object/engine-reports";
export { TaskObjectBase } from "./object/task-object";
export { transitionLogObserver } from "./object/transition-log";

// Fan-out: the step queue's message and what `job.fanOut` sees of a fan-out.
export type { StepClaim } from "./fan-out/host";
export type { FanOutStatus } from "./fan-out/ledger";
export { MAX_FAN_OUT_ITEMS, StepMessageSchema, type StepMessage } from "./fan-out/step-message";

// The ports: what the core needs from the layers above it (src/index.ts wires them in).
export type { AdmitInput, AdmitResult, LeaseInput, PrincipalIndex, PrincipalIndexes } from "./principal-index-port";
export type { CallbackPort, JobHost, JobRunner, TaskObjectWiring, TaskObserver } from "./ports";
export type { RunOutcome } from "./model/run-outcome";
export type { MessageQueue, TaskQueues } from "./queue-port";
export type { JobMessage } from "./client/job-message";
