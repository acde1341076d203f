// A JobHost over plain maps, standing in for the TaskObject's tables (src/core/object/schema.ts)
// across runs: the unit tests of the job context build theirs from it.
import type { JobHost } from "../../src/core";

export class MemoryTables {
  readonly steps = new Map<string, unknown>();
  readonly sleeps = new Map<string, number>();
  readonly answers = new Map<string, unknown>();
  readonly notes = new Map<string, unknown>();
  readonly attempts = new Map<string, unknown>();
}

const found = (map: Map<string, unknown>, key: string) => (map.has(key) ? { value: map.get(key) } : undefined);

/** A host over `tables`; `overrides` replace any of its members. Saves keep the first value, as the object does. */
export function memoryHost(tables: MemoryTables, overrides: Partial<JobHost> = {}): JobHost {
  return {
    taskId: "t".repeat(32),
    attempt: 1,
    signal: new AbortController().signal,
    sliceDeadline: Date.now() + 60_000,
    progress: () => undefined,
    log: () => undefined,
    loadStep: (name) => found(tables.steps, name),
    saveStep: (name, value) => {
      if (!tables.steps.has(name)) tables.steps.set(name, value);
    },
    loadSleep: (key) => tables.sleeps.get(key),
    saveSleep: (key, wakeAt) => {
      if (!tables.sleeps.has(key)) tables.sleeps.set(key, wakeAt);
    },
    loadAnswer: (key) => found(tables.answers, key),
    loadAttempt: (key) => found(tables.attempts, key),
    saveAttempt: (key, value) => {
      if (!tables.attempts.has(key)) tables.attempts.set(key, value);
    },
    loadNote: (name) => found(tables.notes, name),
    saveNote: (name, value) => {
      if (!tables.notes.has(name)) tables.notes.set(name, value);
    },
    ...overrides,
  };
}
