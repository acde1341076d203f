/**
 * Settings several e2e files share, named once so their servers stay one: `sharedServer(vars)`
 * starts one `wrangler dev` per distinct set of vars, and each start costs seconds of CPU.
 * Each set says what its files need of it; a file whose tests need other settings asks for its own.
 */
/**
 * A short inline wait: a call of a few seconds (core's 6 s, agent-sdks' 8 s countdown) outlasts it,
 * one of 1 s (core's inline answer) does not. sessions.test.ts makes only task-augmented calls.
 */
export const SHORT_INLINE_VARS = { INLINE_WAIT_MS: "3000" };

/**
 * A long inline wait, and Workflows checked every 2 s: a plain call of a few seconds, a Workflow's
 * included, ends inline (no file here expects a fallback). The person floor at 5 s: an answer
 * who-answered.test.ts sends at once stays "at once" on a machine loaded enough to delay it by
 * seconds (at 1 s, two loaded runs took longer and read as a person's); no other file here
 * declines or cancels a question (workflows-answers.test.ts accepts either reading of its decline).
 */
export const LONG_INLINE_VARS = { INLINE_WAIT_MS: "30000", WORKFLOW_CHECK_SECONDS: "2", PERSON_FLOOR_MS: "5000" };

/** The principal clients.test.ts's real clients (Claude Desktop's bridge, the Inspector) call as. */
export const CLIENTS_TOKEN = "client-token-0123456789";

/**
 * An 8 s inline wait: a call of 1-2 s answers inline, one of 15 s or more falls back. alice and bob
 * are mcp-2026-tasks.test.ts's and model-facing.test.ts's, which list no task of theirs; carol only
 * mcp-2026-tasks.test.ts uses (it lists her one task); claude is clients.test.ts's.
 */
export const MIDDLE_INLINE_VARS = {
  API_KEYS: `alice:alice-token,bob:bob-token,carol:carol-token,claude:${CLIENTS_TOKEN}`,
  INLINE_WAIT_MS: "8000",
};

/**
 * Keepalives every 100 ms: wrangler dev notices a client gone only when its stream is written, and
 * mcp-2026-listen.test.ts waits for keepalives on a quiet stream. A long inline wait: a call of
 * call-policy.test.ts that waited for it instead of answering at once outlives its test (listen's
 * calls are all task-augmented). p0…p8 are call-policy's, one per test (it lists their tasks);
 * alice and bob are listen's.
 */
export const KEEPALIVE_VARS = {
  API_KEYS: [...Array.from({ length: 9 }, (_, i) => `p${i}:t${i}`), "alice:alice-token", "bob:bob-token"].join(","),
  INLINE_WAIT_MS: "120000",
  KEEPALIVE_MS: "100",
};

/**
 * A 1 s inline wait: a call of a few seconds already outlasts it. alice and bob are check-back's
 * and get-reconnect's, which list no task of theirs; card is task-card.test.ts's.
 */
export const ONE_SECOND_VARS = { INLINE_WAIT_MS: "1000", API_KEYS: "alice:alice-token,bob:bob-token,card:card-token" };

/**
 * An inline wait far past any test's timeout: a plain call that waited for an answer would time out.
 * A dispatch grace of 60 s: jobs start on their queue message (about a second locally), not at once
 * from the alarm, so a stream opened right after a task is created is open before it asks. alice
 * and bob are hitl-http.test.ts's, which lists no task of theirs; deep is deep-input.test.ts's (it
 * lists its tasks).
 */
export const NO_INLINE_END_VARS = {
  API_KEYS: "alice:tokA,bob:tokB,deep:deep-token",
  INLINE_WAIT_MS: "600000",
  DISPATCH_GRACE_MS: "60000",
};
