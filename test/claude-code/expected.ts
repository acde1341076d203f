/**
 * What the model must be handed, in one place: the goal of issue 24 ("the model gets the tool's own
 * words") as patterns over the text Claude Code passes to the model. The server's sentences live in
 * src/tools/*.ts and src/protocol/*; when their wording changes, align these patterns, not the tests.
 *
 * The patterns are matched against `readable()` of a tool result: the text as sent plus, when it is
 * JSON (Claude Code sends `JSON.stringify(structuredContent)` whenever a result has one), every
 * string inside it, so a sentence carried in a structured field counts as said.
 */

/** The calls the scripted model makes. */
export const COUNTDOWN = { seconds: 3 };
export const DEPLOY = { service: "api", version: "v2" };
/** Long enough to outlive the inline wait the server is started with (`INLINE_WAIT_MS` in the tests). */
export const LONG_COUNTDOWN = { seconds: 60 };

/** countdown's own result sentence (src/tools/countdown.ts). */
export const COUNTDOWN_SAID = /Countdown of 3 s finished\./;

/** deploy, when the form was cancelled because no one could be asked (print mode cancels at once). */
export const DEPLOY_NOT_DEPLOYED = /Not deployed/;
/** …says why in words the model can relay: nobody was there to answer the question. */
export const DEPLOY_NOBODY_ANSWERED =
  /\b(no one|nobody|no person|no user)\b[^.]*\b(answer|confirm|asked)|\bcould not (ask|be asked)|\bcannot ask\b/i;
/**
 * …and what a person can still do: answer a task that keeps waiting (the console page or
 * `POST /tasks/{taskId}/input`), or, since a cancel ends deploy's task (docs/model-facing.md), call
 * it again where a person can confirm (or answer) it.
 */
export const DEPLOY_WHAT_NEXT = (baseUrl: string) =>
  new RegExp(
    `${escapeRegExp(baseUrl)}/|/tasks/[\\w-]+/input\\b|\\bcall deploy again where a person can (confirm|answer)\\b`,
  );

/** deploy, answered yes in the form (interactive mode): its own result sentence. */
export const DEPLOY_DONE = /Deployed api v2 to production in 3 steps\./;
/** The question interactive Claude Code shows as a form (src/tools/deploy.ts). */
export const DEPLOY_QUESTION = /Deploy api v2 to production\?/;

/** Interactive Claude Code's own words when it backgrounds a task (not the server's: a sign the task path was taken). */
export const BACKGROUNDED = /moved to the background/;

/** The still-running fallback: not the result… */
export const FALLBACK_NOT_RESULT = /\bnot (its|the) result\b|\bstill running\b/i;
/** …call the check-back tool with this taskId… */
export const FALLBACK_CALL_BACK = (taskId: string) =>
  new RegExp(`\\btask_result\\b[\\s\\S]*${escapeRegExp(taskId)}|${escapeRegExp(taskId)}[\\s\\S]*\\btask_result\\b`);
/** …and when: a time to come back ("in about 50 s", "after 2 minutes"). */
export const FALLBACK_WHEN = /\b(in|after) (about |roughly |~)?\d+(\.\d+)? ?(s|sec|seconds?|min|minutes?)\b/i;

/** build_report (task support "required") called by print mode, which cannot follow a task: one sentence a model can relay… */
export const BUILD_REPORT = { pages: 2 };
export const TASK_ONLY_SAYS_WHY = /\b(background|as a task|only runs|cannot follow|can't follow)\b/i;
/** …with no wire jargon (error codes, `_meta`, extension ids). */
export const TASK_ONLY_NO_WIRE = /-320\d\d|_meta|io\.modelcontextprotocol|\bextension\b/i;

/**
 * Polling (issue 24, point 5) as interactive Claude Code does it: `tasks/get` at the `pollIntervalMs`
 * it is told, for the task's whole life. "Seen" is when the model is handed the end, measured
 * from the task's terminal `lastUpdatedAt` (an upper bound on when the client saw it).
 */
export const POLL_LONG_COUNTDOWN = { seconds: 90 };
export const POLL_MAX_TASKS_GET_LONG = 15;
export const END_SEEN_MS_SHORT = 1500;
export const END_SEEN_MS_LONG = 3000;

/**
 * Each task-capable tool's description, as the model is handed it once ToolSearch loads the tool: one
 * line on long calls (src/protocol/instructions.ts), since most agents drop `instructions`. For an
 * optional tool: it may answer "Still running" with a taskId, and then task_result, not the tool again.
 */
export const DESCRIPTION_LONG_CALL = /Still running[\s\S]*\btask_result\b[\s\S]*\bnot this tool again\b/;

/**
 * Partial output (docs/partial-results.md) in interactive Claude Code's task panel: batch_process
 * publishes "Item n of N: n²." per item, and a working task's 2026 statusMessage names the newest
 * piece ("… · output n: Item n of N: n²."), which Claude Code shows for the backgrounded task.
 */
export const BATCH = { items: 6, secondsPerItem: 4 };
export const PANEL_PARTIAL = /output \d+: Item \d+ of 6/;

/** The server's `instructions`, pasted by Claude Code under "# MCP Server Instructions" / "## tasks". */
export const INSTRUCTIONS_HEADING = /# MCP Server Instructions[\s\S]*\n## tasks\n/;
/** …written for a model: name the check-back tool… */
export const INSTRUCTIONS_CHECK_BACK = /\btask_result\b/;
/** …say how questions are answered… */
export const INSTRUCTIONS_QUESTIONS = /\bquestion|\bconfirm|\bask(s|ed)?\b/i;
/** …and no wire jargon a model cannot act on. */
export const INSTRUCTIONS_NO_WIRE =
  /tasks\/(get|result|list|update|cancel)|subscriptions\/listen|io\.modelcontextprotocol|\bJSON-RPC\b/;

/** The text as sent plus every string inside it when it is JSON. */
export function readable(text: string): string {
  const strings: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === "string") strings.push(value);
    else if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(walk);
  };
  try {
    walk(JSON.parse(text));
  } catch {
    // not JSON: the text is all there is
  }
  return [text, ...strings].join("\n");
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
