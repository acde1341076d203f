/** The Details' list of a task's steps given options, from its document's `steps`: state, attempts, durations, last error. */
import { el } from "../shared/dom";
import type { StepAttempts } from "./schema";

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

export function attemptList(steps: readonly StepAttempts[]): HTMLElement {
  const list = el("ul", { class: "attempts" });
  for (const step of steps) {
    const took = step.durationsMs.map((ms) => `${ms} ms`).join(", ");
    const item = el(
      "li",
      {},
      `${step.name}: ${step.state}, ${plural(step.attempts, "attempt")}${took ? ` (${took})` : ""}`,
    );
    if (step.lastError !== undefined) item.append(el("div", { class: "muted" }, `last error: ${step.lastError}`));
    list.append(item);
  }
  return list;
}
