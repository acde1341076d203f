/**
 * Settings several e2e files share, named once so their servers stay one: `sharedServer(vars)`
 * starts one `wrangler dev` per distinct set of vars, and each start costs seconds of CPU.
 * Each set says what its files need of it; a file whose tests need other settings asks for its own.
 */
import { createHash } from "node:crypto";

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
 * mcp-2026-tasks.test.ts uses (it lists her one task); claude is clients.test.ts's. The person floor
 * at 5 s, as LONG_INLINE_VARS's: model-facing.test.ts declines and cancels "at once" and expects the
 * client's own answer, which beside a second `npm test` (load 25) took more than 1 s and read as a
 * person's; no file here answers a question late.
 */
export const MIDDLE_INLINE_VARS = {
  API_KEYS: `alice:alice-token,bob:bob-token,carol:carol-token,claude:${CLIENTS_TOKEN}`,
  INLINE_WAIT_MS: "8000",
  PERSON_FLOOR_MS: "5000",
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

/** A principal's token on the KEYED_VARS server, by name. */
export const KEYED_TOKENS = {
  demo: "demo-token-0123456789",
  era: "era-token",
  "iso-alice": "iso-tokA",
  "iso-bob": "iso-tokB",
  alice: "tokA",
  bob: "tokB",
  tasks: "tasks-token",
  idem: "idem-token",
  auth: "auth-tokA",
  views: "views-token",
} as const;

/** auth.test.ts's second principal's token: the server holds only its digest, as a `sha256:` key. */
export const HASHED_TOKEN = "auth-tokB-secret";
export const HASHED_DIGEST = createHash("sha256").update(HASHED_TOKEN).digest("hex");

/**
 * API keys and otherwise the defaults, for files that need a principal of their own: one that lists
 * its tasks sees only its own. demo is demo.test.ts's; era era-handlers.test.ts's; iso-alice and
 * iso-bob isolation.test.ts's; alice and bob console-auth.test.ts's (the console shows their
 * names); tasks tasks.test.ts's; idem idempotency.test.ts's; views partial-views.test.ts's; auth and
 * auth-hashed auth.test.ts's (it creates no task). auth-oauth.test.ts only needs API keys on. One
 * allowed browser origin, for auth.test.ts: no other file here sends an Origin but the server's own.
 */
export const KEYED_VARS = {
  API_KEYS: [
    ...Object.entries(KEYED_TOKENS).map(([name, token]) => `${name}:${token}`),
    `auth-hashed:sha256:${HASHED_DIGEST}`,
  ].join(","),
  ALLOWED_ORIGINS: "https://app.example.com",
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

/**
 * The Events extension's files: two principals of their own, loopback callbacks, a quick heartbeat
 * and small quotas (events-*.test.ts), so their floods never touch another file's principals.
 */
export const EVENTS_VARS = {
  API_KEYS: "alice:alice-events-token,bob:bob-events-token,carol:carol-events-token",
  WEBHOOK_ALLOW_LOOPBACK: "true",
  EVENTS_HEARTBEAT_MS: "500",
  EVENTS_MAX_SUBSCRIPTIONS: "4",
  EVENTS_MAX_STREAMS: "2",
};
