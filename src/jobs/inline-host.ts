/**
 * A JobHost kept in memory, for tools that never become tasks (taskSupport "forbidden"):
 * the same JobContext API, with steps memoized for this call only and no durable sleep.
 */
import { plainText } from "../core";
import type { JobHost, LogLevel } from "../core";

export interface InlineHostOptions {
  signal: AbortSignal;
  onProgress?: (progress: number, total?: number, message?: string) => void;
  onLog?: (level: LogLevel, message: string) => void;
  /** How long an inline call may wait in total; a longer sleep fails the call. */
  budgetMs?: number;
}

export function inlineJobHost({ signal, onProgress, onLog, budgetMs = 60_000 }: InlineHostOptions): JobHost {
  const steps = new Map<string, unknown>();
  const sleeps = new Map<string, number>();
  const notes = new Map<string, unknown>();
  const attempts = new Map<string, unknown>();
  let lastProgress = -Infinity;
  return {
    taskId: "",
    attempt: 1,
    signal,
    sliceDeadline: Date.now() + budgetMs,
    progress(progress, total, message) {
      if (!(progress > lastProgress)) return;
      lastProgress = progress;
      onProgress?.(progress, total, message === undefined ? undefined : plainText(message));
    },
    log(level, message) {
      onLog?.(level, plainText(message, { lines: true }));
    },
    loadStep: (name) => (steps.has(name) ? { value: steps.get(name) } : undefined),
    saveStep: (name, value) => void steps.set(name, value),
    loadSleep: (key) => sleeps.get(key),
    saveSleep: (key, wakeAt) => void sleeps.set(key, wakeAt),
    // An inline call cannot wait for a person: it has no answers.
    loadAnswer: () => undefined,
    loadAttempt: (key) => (attempts.has(key) ? { value: attempts.get(key) } : undefined),
    saveAttempt: (key, value) => void (attempts.has(key) || attempts.set(key, value)),
    loadNote: (name) => (notes.has(name) ? { value: notes.get(name) } : undefined),
    saveNote: (name, value) => void notes.set(name, value),
  };
}
