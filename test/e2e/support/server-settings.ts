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
