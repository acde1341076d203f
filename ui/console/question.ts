/**
 * A task's pending question as a small form on its card: booleans as checkboxes, enums as selects,
 * numbers and strings as inputs, required fields marked; Submit accepts with the values, Decline
 * declines. Test hooks: `form.question[data-key]`, fields by `name`, `[data-action="answer"]` and
 * `[data-action="decline"]`, and `.question-error` for a refusal's reason.
 */
import { el } from "../shared/dom";
import { collectAnswer, elicitationField, type Answer } from "../shared/elicitation-fields";
import type { InputRequest } from "./schema";

export type { Answer };

/** A form for `request` (asked under `key`); `onAnswer` gets the person's answer. */
export function questionForm(
  key: string,
  request: InputRequest,
  onAnswer: (key: string, answer: Answer) => void,
): HTMLFormElement {
  const { message, requestedSchema } = request.params;
  const required = new Set(requestedSchema.required ?? []);
  const submit = el("button", { type: "submit", class: "answer", "data-action": "answer" }, "Submit");
  const decline = el("button", { type: "button", "data-action": "decline" }, "Decline");
  const form = el(
    "form",
    { class: "question", "data-key": key },
    el("p", { class: "ask" }, message),
    ...Object.entries(requestedSchema.properties).map(([name, field]) =>
      elicitationField(name, field, required.has(name), { check: "check", field: "field" }),
    ),
    el("div", { class: "buttons" }, submit, decline),
    el("p", { class: "question-error", hidden: "" }),
  );
  const busy = (on: boolean) => {
    submit.disabled = decline.disabled = on;
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    busy(true);
    onAnswer(key, { action: "accept", content: collectAnswer(form) });
  });
  decline.addEventListener("click", () => {
    busy(true);
    onAnswer(key, { action: "decline" });
  });
  return form;
}

/** The server refused the answer: say why and let the person try again. */
export function showRefusal(form: HTMLFormElement, message: string): void {
  const error = form.querySelector<HTMLElement>(".question-error");
  if (error) {
    error.textContent = message;
    error.hidden = false;
  }
  for (const button of form.querySelectorAll("button")) button.disabled = false;
}
