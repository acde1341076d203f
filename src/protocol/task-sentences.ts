/**
 * The sentences a model reads about a task that has not given its result: what state it is in
 * (`summary`) and what to do next and when (`next`). The fallback of a plain call and the
 * check-back tools speak with these, so a model hears the same words from every one of them.
 */
import { isTerminal, type TaskSnapshot } from "../core";
import { howToAnswer } from "./input-requests";
import { shortNumber } from "./short-number";

/** The sentences of one result: `summary` always, `next` while something is left to do. */
export interface Sentences {
  summary: string;
  next?: string;
}

/** The text block that says what the structured object says. */
export const sentencesText = ({ summary, next }: Sentences): string => (next ? `${summary} ${next}` : summary);

type Seen = Pick<TaskSnapshot, "task" | "progress" | "tool" | "inputRequests" | "estimatedEndAt">;

/**
 * Seconds until the task is likely done: the task's own estimate of its end (its pace at work, so
 * days spent waiting for a person do not count; the poll interval uses the same one), else, without
 * one or past it, its poll interval. A guess, but one a model can plan a check-back with.
 */
export function secondsLeft(snapshot: Seen, now = Date.now()): number {
  const end = snapshot.estimatedEndAt;
  if (end !== undefined && end > now) return Math.max(1, Math.round((end - now) / 1000));
  return Math.max(1, Math.round(snapshot.task.pollInterval / 1000));
}

/** "80 s", "12 min", "3 h". */
export function duration(seconds: number): string {
  if (seconds < 120) return `${seconds} s`;
  if (seconds < 120 * 60) return `${Math.round(seconds / 60)} min`;
  return `${Math.round(seconds / 3600)} h`;
}

/** " (10 of 90, about 80 s left)", or "" before any progress. */
function progressPhrase(snapshot: Seen, now: number): string {
  const { progress } = snapshot;
  if (!progress) return "";
  const amount =
    progress.total !== undefined
      ? `${shortNumber(progress.progress)} of ${shortNumber(progress.total)}`
      : shortNumber(progress.progress);
  const left =
    progress.total !== undefined && progress.progress > 0 ? `, about ${duration(secondsLeft(snapshot, now))} left` : "";
  return ` (${amount}${left})`;
}

const questionsOf = (snapshot: Seen): string =>
  Object.values(snapshot.inputRequests ?? {})
    .map((question) => `"${question.message}"`)
    .join(" and ");

/** When to come back for the result of a running task, and with which tool. */
export function checkBackLater(snapshot: Seen, now = Date.now()): string {
  const { taskId } = snapshot.task;
  return `Call task_result with taskId "${taskId}" in about ${duration(secondsLeft(snapshot, now))} to get the result; task_status shows progress meanwhile, task_cancel stops it.`;
}

/** How the person's answer reaches a waiting task: through the model, or by a person in the console. */
function answerHow(snapshot: Seen, baseUrl?: string): string {
  const { taskId } = snapshot.task;
  const console = baseUrl ? ` A person can also answer in the task console at ${baseUrl}/ .` : "";
  return `${howToAnswer(snapshot, baseUrl)}${console} Then call task_result with taskId "${taskId}" for the result; call task_cancel if nobody should answer.`;
}

/** A plain call's task outlasted the wait (or asks a question this client cannot show): the fallback's sentences. */
export function stillRunningSentences(snapshot: Seen, baseUrl: string, now = Date.now()): Sentences {
  const { taskId } = snapshot.task;
  if (snapshot.task.status === "input_required") {
    return {
      summary: `Waiting for a person: "${snapshot.tool}" (task ${taskId}) asks ${questionsOf(snapshot)}. This is not its result.`,
      next: answerHow(snapshot, baseUrl),
    };
  }
  // Self-contained: most clients hand their model no instructions, so it says not to call the tool again.
  return {
    summary: `Still running: "${snapshot.tool}" continues in the background as task ${taskId}${progressPhrase(snapshot, now)}. This is not its result.`,
    next: `${checkBackLater(snapshot, now)} Calling "${snapshot.tool}" again would start a second run.`,
  };
}

/** What `task_status` (and every check-back tool that shows the task) says about it. */
export function statusSentences(snapshot: Seen, now = Date.now()): Sentences {
  const { task } = snapshot;
  const name = `Task ${task.taskId} ("${snapshot.tool}")`;
  if (isTerminal(task.status)) {
    const ended = task.status === "cancelled" ? "was cancelled" : `has ${task.status}`;
    return {
      summary: `${name} ${ended}${task.statusMessage ? `: ${task.statusMessage}` : "."}`,
      next: `Call task_result with taskId "${task.taskId}" to get its result.`,
    };
  }
  if (task.status === "input_required")
    return {
      summary: `${name} is waiting for a person to answer ${questionsOf(snapshot)}.`,
      next: answerHow(snapshot),
    };
  return { summary: `${name} is still running${progressPhrase(snapshot, now)}.`, next: checkBackLater(snapshot, now) };
}
