/**
 * A task's pending question as a small form on its card: booleans as checkboxes, enums as selects,
 * numbers and strings as inputs, required fields marked; Submit accepts with the values, Decline
 * declines. Test hooks: `form.question[data-key]`, fields by `name`, `[data-action="answer"]` and
 * `[data-action="decline"]`, and `.question-error` for a refusal's reason.
 */
import type { InputRequest } from "./schema";

export type Answer = { action: "accept" | "decline"; content?: Record<string, unknown> };

type Field = InputRequest["params"]["requestedSchema"]["properties"][string];

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function choices(field: Field): { value: string; label: string }[] | undefined {
  if (Array.isArray(field["enum"])) {
    const names: unknown[] = Array.isArray(field["enumNames"]) ? field["enumNames"] : [];
    return field["enum"].map((value: unknown, i: number) => ({ value: String(value), label: str(names[i]) ?? String(value) }));
  }
  if (Array.isArray(field["oneOf"])) {
    return field["oneOf"].flatMap((option: unknown) =>
      typeof option === "object" && option !== null && "const" in option ? [{ value: String(option.const), label: ("title" in option && str(option.title)) || String(option.const) }] : [],
    );
  }
  return undefined;
}

function control(name: string, field: Field, required: boolean): HTMLElement {
  const title = str(field["title"]) ?? name;
  const hint = str(field["description"]);
  if (field.type === "boolean") {
    const box = el("input", { type: "checkbox", name, "data-kind": "boolean" });
    box.checked = field["default"] === true;
    return el("label", hint ? { class: "check", title: hint } : { class: "check" }, box, title);
  }
  const options = choices(field);
  let input: HTMLInputElement | HTMLSelectElement;
  if (options) input = el("select", { name, "data-kind": "string" }, ...options.map((o) => el("option", { value: o.value }, o.label)));
  else if (field.type === "number" || field.type === "integer") input = el("input", { type: "number", name, "data-kind": "number", ...(field.type === "integer" && { step: "1" }) });
  else input = el("input", { type: "text", name, "data-kind": "string" });
  const initial = field["default"];
  if (typeof initial === "string" || typeof initial === "number") input.value = String(initial);
  input.required = required;
  return el("label", hint ? { class: "field", title: hint } : { class: "field" }, `${title}${required ? " *" : ""}`, input);
}

function collect(form: HTMLFormElement): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const input of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-kind]")) {
    const kind = input.dataset["kind"];
    if (kind === "boolean" && input instanceof HTMLInputElement) content[input.name] = input.checked;
    else if (kind === "number" && input instanceof HTMLInputElement && input.value !== "") content[input.name] = input.valueAsNumber;
    else if (kind === "string" && input.value !== "") content[input.name] = input.value;
  }
  return content;
}

/** A form for `request` (asked under `key`); `onAnswer` gets the person's answer. */
export function questionForm(key: string, request: InputRequest, onAnswer: (key: string, answer: Answer) => void): HTMLFormElement {
  const { message, requestedSchema } = request.params;
  const required = new Set(requestedSchema.required ?? []);
  const submit = el("button", { type: "submit", class: "answer", "data-action": "answer" }, "Submit");
  const decline = el("button", { type: "button", "data-action": "decline" }, "Decline");
  const form = el(
    "form",
    { class: "question", "data-key": key },
    el("p", { class: "ask" }, message),
    ...Object.entries(requestedSchema.properties).map(([name, field]) => control(name, field, required.has(name))),
    el("div", { class: "buttons" }, submit, decline),
    el("p", { class: "question-error", hidden: "" }),
  );
  const busy = (on: boolean) => {
    submit.disabled = decline.disabled = on;
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    busy(true);
    onAnswer(key, { action: "accept", content: collect(form) });
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
