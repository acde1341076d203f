/**
 * The words a tool ends with when the client answered its question on its own (`answer.automatic`:
 * a decline or cancel sooner than a person could have read it, docs/human-in-the-loop.md): no one
 * saw the question, and what a person can still do. deploy and publish_report say it; yours can too.
 */
import type { InputAnswer } from "../core";

/**
 * Who answered: the client, not a person.
 * @example `Not deployed: ${answeredOnItsOwn(answer, question)} ${askWhereAPersonCan("deploy", "deploy")}`
 */
export function answeredOnItsOwn(answer: InputAnswer, question: string): string {
  const did = answer.action === "cancel" ? "cancelled" : "declined";
  return `the client ${did} "${question}" on its own, at once, so no one saw or answered the question.`;
}

/** What a person can still do: call again where they can answer, through the model or the console. */
export const askWhereAPersonCan = (tool: string, goAhead: string): string =>
  `To ${goAhead}, call ${tool} again where a person can answer: from a client that shows them the question, ` +
  "or from one that lets it wait, so they can answer it with task_input or in this server's task console (its / page).";
