/**
 * A pending question (an `inputRequests` entry: `elicitation/create` with a flat
 * `requestedSchema`) as a form. Booleans become checkboxes, enums selects, numbers and
 * strings inputs; Submit accepts with the values, Decline declines.
 */
import { el } from "../shared/dom";
import { collectAnswer, elicitationField, type Answer } from "../shared/elicitation-fields";
import type { InputRequest } from "./data";

export type { Answer };

/** Fills `form` with one question; `onAnswer` gets the person's answer. */
export function renderQuestion(
  form: HTMLFormElement,
  key: string,
  request: InputRequest,
  busy: boolean,
  onAnswer: (key: string, answer: Answer) => void,
): void {
  const { message, requestedSchema } = request.params;
  const required = new Set(requestedSchema.required ?? []);
  // Buttons, not a form submission: hosts sandbox the card without allow-forms, which blocks submit.
  const submit = el("button", { type: "button", class: "primary", "data-action": "accept" }, "Submit");
  const decline = el("button", { type: "button", "data-action": "decline" }, "Decline");
  submit.disabled = decline.disabled = busy;
  form.replaceChildren(
    el("p", {}, message),
    ...Object.entries(requestedSchema.properties).map(([name, prop]) =>
      elicitationField(name, prop, required.has(name), { field: "stacked" }),
    ),
    el("div", { class: "actions" }, submit, decline),
  );
  form.dataset["key"] = key;
  form.onsubmit = (event) => event.preventDefault(); // Enter in a field must not navigate the card away
  submit.onclick = () => {
    if (form.reportValidity()) onAnswer(key, { action: "accept", content: collectAnswer(form) });
  };
  decline.onclick = () => onAnswer(key, { action: "decline" });
}
