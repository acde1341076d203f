/**
 * A pending question (an `inputRequests` entry: `elicitation/create` with a flat
 * `requestedSchema`) as a form. Booleans become checkboxes, enums selects, numbers and
 * strings inputs; Submit accepts with the values, Decline declines.
 */
import type { InputRequest } from "./data";
import { el } from "./result-view";

export type Answer = { action: "accept" | "decline"; content?: Record<string, unknown> };

type Property = Record<string, unknown>;

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function enumOptions(prop: Property): { value: string; label: string }[] | undefined {
  if (Array.isArray(prop["enum"])) {
    const names = Array.isArray(prop["enumNames"]) ? prop["enumNames"] : [];
    return prop["enum"].map((value, i) => ({ value: String(value), label: str(names[i]) ?? String(value) }));
  }
  if (Array.isArray(prop["oneOf"])) {
    return prop["oneOf"].flatMap((option) => {
      if (typeof option !== "object" || option === null || !("const" in option)) return [];
      const label = "title" in option ? str(option.title) : undefined;
      return [{ value: String(option.const), label: label ?? String(option.const) }];
    });
  }
  return undefined;
}

function field(name: string, prop: Property, required: boolean): HTMLElement {
  const title = str(prop["title"]) ?? name;
  const description = str(prop["description"]);
  const type = str(prop["type"]);
  const options = enumOptions(prop);
  if (type === "boolean") {
    const box = el("input", { type: "checkbox", name, "data-kind": "boolean" });
    box.checked = prop["default"] === true;
    return el("label", description ? { title: description } : {}, box, title);
  }
  let control: HTMLInputElement | HTMLSelectElement;
  if (options) {
    control = el("select", { name, "data-kind": "string" }, ...options.map((option) => el("option", { value: option.value }, option.label)));
  } else if (type === "number" || type === "integer") {
    control = el("input", { type: "number", name, "data-kind": "number", ...(type === "integer" && { step: "1" }) });
  } else {
    control = el("input", { type: "text", name, "data-kind": "string" });
  }
  const initial = prop["default"];
  if (typeof initial === "string" || typeof initial === "number") control.value = String(initial);
  control.required = required;
  return el("label", { class: "stacked", ...(description && { title: description }) }, `${title}${required ? " *" : ""}`, control);
}

/** The answer the form holds now: every checkbox, and every other field that has a value. */
function collect(form: HTMLFormElement): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const control of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-kind]")) {
    const kind = control.dataset["kind"];
    if (kind === "boolean" && control instanceof HTMLInputElement) content[control.name] = control.checked;
    else if (kind === "number" && control instanceof HTMLInputElement && control.value !== "") content[control.name] = control.valueAsNumber;
    else if (kind === "string" && control.value !== "") content[control.name] = control.value;
  }
  return content;
}

/** Fills `form` with one question; `onAnswer` gets the person's answer. */
export function renderQuestion(form: HTMLFormElement, key: string, request: InputRequest, busy: boolean, onAnswer: (key: string, answer: Answer) => void): void {
  const { message, requestedSchema } = request.params;
  const required = new Set(requestedSchema.required ?? []);
  // Buttons, not a form submission: hosts sandbox the card without allow-forms, which blocks submit.
  const submit = el("button", { type: "button", class: "primary", "data-action": "accept" }, "Submit");
  const decline = el("button", { type: "button", "data-action": "decline" }, "Decline");
  submit.disabled = decline.disabled = busy;
  form.replaceChildren(
    el("p", {}, message),
    ...Object.entries(requestedSchema.properties).map(([name, prop]) => field(name, prop, required.has(name))),
    el("div", { class: "actions" }, submit, decline),
  );
  form.dataset["key"] = key;
  form.onsubmit = (event) => event.preventDefault(); // Enter in a field must not navigate the card away
  submit.onclick = () => {
    if (form.reportValidity()) onAnswer(key, { action: "accept", content: collect(form) });
  };
  decline.onclick = () => onAnswer(key, { action: "decline" });
}
