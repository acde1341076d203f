/**
 * The server's `instructions` (2026 `server/discover`, 2025 `initialize`): clients paste them into
 * the model's system prompt (Claude Code does, verbatim), so they are written for a model — how long
 * calls work here and what to do when one does not answer at once — with no protocol method names.
 */
import type { Tool } from "../jobs/define-tool";

export const MODEL_INSTRUCTIONS = [
  "Some tools on this server run for minutes, hours or days. How their calls work:",
  "- A call that finishes within a few seconds answers with its result.",
  '- A longer call keeps running in the background and answers with a task link instead: its answer starts "Still running" and says "This is not its result". Do not call the tool again. Call task_result with its taskId when the answer says to (it gives a time); task_status shows progress, task_cancel stops the task.',
  "- If your client follows background tasks itself, it brings you the result when the task is done.",
  "- Some tools ask a person a question (for example to confirm a deploy). When the question cannot be shown to anyone here, the answer says the task is waiting for a person: ask the user, then pass their answer on with task_input, and never answer for them. A person can also answer in this server's task console.",
  "- A tool that runs only as a background task cannot run from a client that does not follow background tasks; its answer says so. Tell the user.",
].join("\n");

/**
 * One line of the same, on each task-capable tool's description: most agents drop `instructions`
 * (docs/clients.md), so this is all their model learns of how long calls work. Added by the listing
 * (tool-listings.ts, toolDescription), so a tool of yours gets it without writing it.
 */
export function longCallLine(taskSupport: "optional" | "required"): string {
  if (taskSupport === "required") {
    return (
      "It always runs in the background as a task, so it needs a client that supports MCP tasks; " +
      "such a client brings its result when it ends."
    );
  }
  return (
    'If a call takes more than a few seconds, it keeps running in the background and answers "Still running" ' +
    "with a taskId instead of its result: " +
    "then call task_result with that taskId when the answer says (not this tool again)."
  );
}

/** A tool's description as listed: its own words, then the line on long calls if it may run as a task. */
export const toolDescription = ({ description, taskSupport }: Pick<Tool, "description" | "taskSupport">): string =>
  taskSupport === "forbidden" ? description : `${description} ${longCallLine(taskSupport)}`;
