/**
 * What the console knows of each task, and the pure rules for folding in what it reads: list
 * pages (the index, which may lag), task documents, and stream events. A terminal status is
 * final: a lagging list entry never brings a finished task back to "working". No DOM here, so
 * the rules are unit-tested in Node.
 */
import {
  isTerminalStatus,
  pieceText,
  type InputRequest,
  type ListedTask,
  type Progress,
  type StepAttempts,
  type TaskDocument,
  type TaskError,
  type TaskEvent,
  type TaskStatus,
  type TaskView,
  type ToolResult,
} from "./schema";

/** Log lines kept per task: enough to read what happened, bounded for a long job. */
export const MAX_LOG_LINES = 200;

/** Partial pieces kept per task: the newest, the rest counted (the task document has them all). */
export const MAX_PIECES_SHOWN = 50;

export interface PieceLine {
  n: number;
  text: string;
}

export interface LogLine {
  level: string;
  message: string;
}

export interface TaskState {
  taskId: string;
  tool: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: number;
  lastUpdatedAt: number;
  ttl: number;
  progress?: Progress;
  steps: string[];
  /** The steps given options with their attempts, as the task document last listed them. */
  attempts?: StepAttempts[];
  logs: LogLine[];
  /** Log lines dropped from the front to stay within MAX_LOG_LINES. */
  logsDropped: number;
  /** The newest partial pieces, in order (at most MAX_PIECES_SHOWN), and how many there are in all. */
  partial?: PieceLine[];
  partialCount?: number;
  result?: ToolResult;
  error?: TaskError;
  /** The questions it waits on, while `input_required` (read from the task document). */
  inputRequests?: Record<string, InputRequest>;
  /** The last event applied from the task's stream (0: none); a resume asks for what follows. */
  lastSeq: number;
  /** The whole event log has been read once (steps and log are complete). */
  eventsRead: boolean;
  /** The task document (progress, outcome) has been read since the task finished. */
  outcomeRead: boolean;
}

const time = (iso: string, fallback: number): number => {
  const ms = Date.parse(iso);
  return Number.isFinite(ms) ? ms : fallback;
};

export function fromListed(listed: ListedTask): TaskState {
  const createdAt = time(listed.createdAt, Date.now());
  return {
    taskId: listed.taskId,
    tool: listed.tool,
    status: listed.status,
    ...(listed.statusMessage !== undefined && { statusMessage: listed.statusMessage }),
    createdAt,
    lastUpdatedAt: time(listed.lastUpdatedAt, createdAt),
    ttl: listed.ttl,
    steps: [],
    logs: [],
    logsDropped: 0,
    lastSeq: 0,
    eventsRead: false,
    outcomeRead: false,
  };
}

/** A status report from any source; ignored once the task is known to be finished, or when it says nothing new. */
function withView(state: TaskState, view: TaskView): TaskState {
  if (isTerminalStatus(state.status) && view.status !== state.status) return state;
  const lastUpdatedAt = time(view.lastUpdatedAt, state.lastUpdatedAt);
  if (lastUpdatedAt < state.lastUpdatedAt) return state; // older news than what is shown
  if (
    view.status === state.status &&
    lastUpdatedAt === state.lastUpdatedAt &&
    view.statusMessage === state.statusMessage
  )
    return state;
  const { statusMessage: _old, inputRequests, ...rest } = state;
  // The questions hold only while it waits; a new wait brings its own (read from the document).
  const keep = view.status === "input_required" && state.status === "input_required" && inputRequests;
  return {
    ...rest,
    status: view.status,
    lastUpdatedAt,
    ...(view.statusMessage !== undefined && { statusMessage: view.statusMessage }),
    ...(keep && { inputRequests }),
  };
}

/** A list entry. The index leaves out a working task's statusMessage, so the one shown stays. */
export function mergeListed(state: TaskState, listed: ListedTask): TaskState {
  const keepMessage =
    listed.statusMessage === undefined && listed.status === state.status && state.statusMessage !== undefined;
  return withView(state, keepMessage ? { ...listed, statusMessage: state.statusMessage } : listed);
}

export function applyDocument(state: TaskState, doc: TaskDocument): TaskState {
  const next: TaskState = { ...withView(state, doc), tool: doc.tool };
  if (doc.progress && (!next.progress || doc.progress.progress >= next.progress.progress)) next.progress = doc.progress;
  if (doc.result) next.result = doc.result;
  if (doc.error) next.error = doc.error;
  if (doc.steps) next.attempts = doc.steps;
  for (const piece of doc.partial?.pieces ?? []) Object.assign(next, withPiece(next, piece.n, pieceText(piece)));
  if (doc.partial && doc.partial.count > (next.partialCount ?? 0)) next.partialCount = doc.partial.count;
  if (next.status === "input_required" && doc.status === "input_required" && doc.inputRequests)
    next.inputRequests = doc.inputRequests;
  // A finished task's document holds its final progress and outcome: nothing more to read.
  if (isTerminalStatus(doc.status)) next.outcomeRead = true;
  return next;
}

/** One event of the task's stream; a repeat (seq already applied) changes nothing. */
export function applyEvent(state: TaskState, event: TaskEvent): TaskState {
  if (event.seq <= state.lastSeq) return state;
  const next: TaskState = { ...state, lastSeq: event.seq };
  switch (event.type) {
    case "status":
      return { ...withView(next, event.task), lastSeq: event.seq };
    case "progress":
      next.progress = event.progress;
      return next;
    case "step":
      next.steps = [...state.steps, event.name];
      return next;
    case "log": {
      const logs = [...state.logs, { level: event.level, message: event.message }];
      const over = Math.max(0, logs.length - MAX_LOG_LINES);
      next.logs = over > 0 ? logs.slice(over) : logs;
      next.logsDropped = state.logsDropped + over;
      return next;
    }
    case "partial":
      return { ...next, ...withPiece(state, event.n, event.text) };
    case "result":
      if ("error" in event) next.error = event.error;
      else next.result = event.result;
      next.outcomeRead = true;
      return next;
  }
}

/** The pieces once piece `n` is added; a piece already shown (a replay, the document) changes nothing. */
function withPiece(state: TaskState, n: number, text: string): Pick<TaskState, "partial" | "partialCount"> {
  const shown = state.partial ?? [];
  if (shown.some((piece) => piece.n === n)) return { partial: shown, partialCount: state.partialCount ?? shown.length };
  const partial = [...shown, { n, text }].sort((a, b) => a.n - b.n).slice(-MAX_PIECES_SHOWN);
  return { partial, partialCount: Math.max(state.partialCount ?? 0, n) };
}

/** The bar's numbers: a finished task with no total shows full; a running one with none, indeterminate. */
export function progressBar(state: TaskState): { value: number; max: number } | undefined {
  const { progress } = state;
  if (progress?.total !== undefined && progress.total > 0)
    return { value: Math.min(progress.progress, progress.total), max: progress.total };
  if (state.status === "completed") return { value: 1, max: 1 };
  return undefined;
}

/** Newest first, as the server lists them (creation time, then id, both descending). */
export function newestFirst(a: TaskState, b: TaskState): number {
  return b.createdAt - a.createdAt || (a.taskId < b.taskId ? 1 : a.taskId > b.taskId ? -1 : 0);
}

/** The server deletes a task once its ttl has passed: so does the console. */
export const expired = (state: TaskState, now: number): boolean => now > state.createdAt + state.ttl;

export const isRunning = (state: TaskState): boolean => !isTerminalStatus(state.status);

/** It waits for an answer, and the page has not read what it asks yet. */
export const needsQuestions = (state: TaskState): boolean =>
  state.status === "input_required" && state.inputRequests === undefined;

/** The newest piece this task's state holds (0: none): the console reads only the pieces after it. */
export const pieceCursor = (state: TaskState | undefined): number => state?.partial?.at(-1)?.n ?? 0;

/** `GET /tasks/{id}`, with `?after=N` once the reader holds pieces up to N. */
export const documentPath = (taskId: string, after: number): string =>
  after > 0 ? `/tasks/${taskId}?after=${after}` : `/tasks/${taskId}`;
