/**
 * The one principal of a server whose callers have no identity (`durableTasks({ principal:
 * "per-task" })`): every caller is it, so each task is reachable by its unguessable id alone (the
 * object is named by (principal, id): ids.ts) and nothing that gathers tasks by principal may answer
 * for it: no list, no owner-scoped events, no idempotency keys (a key shared by every caller would
 * hand one caller's task to whoever guesses the key).
 */

/** Parentheses and a space: not an id an adopter's principal() would answer (principal.ts refuses it). */
export const PER_TASK_PRINCIPAL = "(per-task capability)";

export const isPerTaskPrincipal = (principal: string): boolean => principal === PER_TASK_PRINCIPAL;

/** Why a listing is refused, for every surface that would list (tasks/list, GET /tasks). */
export const PER_TASK_NO_LISTING =
  "This server has no sign-in, so each task is its own capability: it is read, followed and cancelled by its id (the link its answer carried), and tasks are never listed.";

export const PER_TASK_NO_IDEMPOTENCY_KEY =
  "This server has no sign-in, so an idempotency key would be shared by every caller: send the call without mcp-task-worker/idempotency-key (its answer's task id is what names it).";
