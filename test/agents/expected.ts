/**
 * What each agent's model must be handed (issue 31, point 5), as patterns over `readable()` of a
 * tool result (its text plus every string inside it when it is JSON). The fallback patterns are
 * Claude Code's (test/claude-code/expected.ts): the server's sentences are the same for every client.
 */
export {
  FALLBACK_CALL_BACK,
  FALLBACK_NOT_RESULT,
  FALLBACK_WHEN,
  DEPLOY_NOT_DEPLOYED,
  DEPLOY_WHAT_NEXT,
  readable,
} from "../claude-code/expected";

/** The quick call and countdown's own sentence for it (src/tools/countdown.ts). */
export const QUICK = { seconds: 2 };
export const QUICK_SAID = /Countdown of 2 s finished\./;

/**
 * The long call: 90 s by default, as issue 31 asks, far past the server's inline wait (INLINE_WAIT_MS,
 * 10 s, not lowered here). `AGENTS_LONG_SECONDS` shortens it while working on the suite.
 */
export const LONG_SECONDS = Number(process.env["AGENTS_LONG_SECONDS"] ?? 90);
export const LONG = { seconds: LONG_SECONDS };
export const LONG_SAID = new RegExp(`Countdown of ${LONG_SECONDS} s finished\\.`);

export const DEPLOY = { service: "api", version: "v2" };
/** deploy answered at once by a headless client: the words say no person saw or answered the question… */
export const DEPLOY_NO_PERSON = new RegExp(
  [
    String.raw`\b(no one|nobody|no person)\b[^.]*\b(saw|seen|see|read|answer(ed)?|confirm(ed)?|asked)\b`,
    String.raw`\b(on its own|by itself|automatically)\b`,
    String.raw`\bcould not (ask|be asked|show)\b`,
  ].join("|"),
  "i",
);
/** …and never that a person declined, which is not what happened. */
export const DEPLOY_PERSON_DECLINED = /\bthe person declined\b/i;
/** A client that cannot ask at all gets the waiting fallback: the question waits for a person. */
export const DEPLOY_WAITING = /\bWaiting for a person\b/;

/** Signs of a broken MCP connection in an agent's own output. */
export const MCP_ERRORS =
  /MCP error|MCP issues detected|McpError|not connected|failed to (start|connect)|end of JSON|Connection closed/i;
