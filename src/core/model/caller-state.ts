/**
 * Where a task keeps what the adopter's auth knew of its caller (job.caller): one adapter-state
 * entry, written with the task and deleted with it, which no reader's view includes (the task
 * document, tasks/get, events, webhooks and logs are built from the record and the event log).
 * The core stores the value as it is given: sealed (src/callers/seal.ts) or a reference, never read.
 */
export const CALLER_STATE = { kind: "caller", key: "creator" } as const;
