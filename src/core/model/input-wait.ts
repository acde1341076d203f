/**
 * The state machine's human-in-the-loop transitions, pure like machine.ts: a run that asked
 * (`job.elicit`) ends and the task waits in `input_required` with nothing running; answers
 * arrive, are checked against their question's form, and once none is pending the task is due to
 * run again (its alarm starts a run that replays its steps and reads the stored answers).
 */
import { plainText } from "./plain-text";
import { checkAnswer, PERSON_FLOOR_MS, type AskedQuestion, type InputAnswer } from "./questions";
import { receivedAt } from "./question-receipt";
import { statusEvent, holdsLease, unchanged, type Transition } from "./transition";
import type { NewTaskEvent } from "./events";
import { isTerminal, pendingInputs, type AskedInput, type TaskRecord } from "./record";

/** What a waiting task says in its statusMessage: the first question it waits on. */
function waitingMessage(record: TaskRecord): string | undefined {
  const pending = Object.values(pendingInputs(record));
  const first = pending[0];
  if (!first) return undefined;
  return pending.length === 1
    ? first.message
    : `${first.message} (and ${pending.length - 1} more question${pending.length === 2 ? "" : "s"})`;
}

/** Due now: the run that follows replays its steps and finds every answer stored. */
const resumeNow = (record: TaskRecord, now: number): TaskRecord => ({
  ...record,
  status: "working",
  statusMessage: "Answer received; resuming.",
  lastUpdatedAt: now,
  run: { ...record.run, phase: "sleeping", leaseId: undefined, leaseUntil: undefined, wakeAt: now },
});

/**
 * The run ended asking `questions`. Keys already asked are not asked again (a key is asked once per
 * task); if nothing is left to wait for (every question was answered meanwhile), the task is due at once.
 */
export function waitForInput(
  record: TaskRecord,
  leaseId: string,
  questions: readonly AskedQuestion[],
  now: number,
): Transition {
  if (!holdsLease(record, leaseId)) return unchanged(record);
  const inputs: Record<string, AskedInput> = { ...record.inputs };
  const events: NewTaskEvent[] = [];
  for (const { key, message: asked, requestedSchema } of questions) {
    if (Object.hasOwn(inputs, key)) continue;
    const message = plainText(asked, { lines: true });
    inputs[key] = { message, requestedSchema, askedAt: now };
    events.push({ type: "question", data: { key, message, requestedSchema } });
  }
  const asked: TaskRecord = { ...record, inputs };
  const message = waitingMessage(asked);
  if (message === undefined) {
    const next = resumeNow(asked, now);
    return { record: next, events: [...events, statusEvent(next)] };
  }
  const next: TaskRecord = {
    ...asked,
    status: "input_required",
    statusMessage: message,
    lastUpdatedAt: now,
    run: { ...record.run, phase: "waiting_input", leaseId: undefined, leaseUntil: undefined, wakeAt: undefined },
  };
  return { record: next, events: [...events, statusEvent(next)] };
}

export type AnswerResult =
  | {
      ok: true;
      transition: Transition;
      /** The answers to store (with the steps) for the job to read. */
      accepted: { key: string; answer: InputAnswer }[];
      /** Keys no question waits on: never asked, already answered. Ignored, as the Tasks extension asks. */
      ignored: string[];
    }
  | { ok: false; reason: "terminal" }
  /** One answer does not fit its form: nothing was stored, the task keeps waiting. */
  | { ok: false; reason: "invalid"; key: string; message: string };

/**
 * Answers to pending questions, by key. All or nothing: if one answer breaks its question's form,
 * none is taken. Once no question is pending, the task is due to run again. A decline or cancel
 * that comes within `floorMs` of the question first reaching a reader (question-receipt.ts; its
 * asking, if no reader got it) is marked `automatic`: the client's own.
 */
export function answerInputs(
  record: TaskRecord,
  responses: Readonly<Record<string, unknown>>,
  now: number,
  floorMs = PERSON_FLOOR_MS,
): AnswerResult {
  if (isTerminal(record.status)) return { ok: false, reason: "terminal" };
  const pending = pendingInputs(record);
  const accepted: { key: string; answer: InputAnswer }[] = [];
  const ignored: string[] = [];
  for (const [key, raw] of Object.entries(responses)) {
    const question = Object.hasOwn(pending, key) ? pending[key] : undefined;
    if (!question) {
      ignored.push(key);
      continue;
    }
    const checked = checkAnswer(question, raw);
    if (!checked.ok) return { ok: false, reason: "invalid", key, message: checked.message };
    const asked = record.inputs?.[key];
    const tooSoon = checked.answer.action !== "accept" && asked !== undefined && now - receivedAt(asked) < floorMs;
    accepted.push({ key, answer: tooSoon ? { ...checked.answer, automatic: true } : checked.answer });
  }
  if (accepted.length === 0) return { ok: true, transition: unchanged(record), accepted, ignored };

  const inputs: Record<string, AskedInput> = { ...record.inputs };
  const events: NewTaskEvent[] = [];
  for (const { key, answer } of accepted) {
    const asked = inputs[key];
    if (asked) inputs[key] = { ...asked, answeredAt: now, action: answer.action };
    events.push({ type: "answer", data: { key, action: answer.action } });
  }
  const answered: TaskRecord = { ...record, inputs };
  const message = waitingMessage(answered);
  let next: TaskRecord;
  if (message === undefined && record.run.phase === "waiting_input") next = resumeNow(answered, now);
  else if (message !== undefined && message !== record.statusMessage)
    next = { ...answered, statusMessage: message, lastUpdatedAt: now };
  else next = answered;
  if (next.status !== record.status || next.statusMessage !== record.statusMessage) events.push(statusEvent(next));
  return { ok: true, transition: { record: next, events }, accepted, ignored };
}
