/**
 * A question's flat `requestedSchema` (elicitation/create) as form fields, for the console's and
 * the card's question forms: booleans as checkboxes, enums (`enum`/`enumNames` or `oneOf` consts)
 * as selects, numbers and strings as inputs, required fields marked with `*`; and the answer the
 * fields hold. Each page lays the fields out with its own classes and buttons.
 */
import { el } from "./dom";

export type Answer = { action: "accept" | "decline"; content?: Record<string, unknown> };

/** Each page's class names for a checkbox's label and another field's label. */
export interface FieldClasses {
  check?: string;
  field?: string;
}

const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);

function choices(prop: Record<string, unknown>): { value: string; label: string }[] | undefined {
  if (Array.isArray(prop["enum"])) {
    const names: unknown[] = Array.isArray(prop["enumNames"]) ? prop["enumNames"] : [];
    return prop["enum"].map((value: unknown, i: number) => ({
      value: String(value),
      label: str(names[i]) ?? String(value),
    }));
  }
  if (Array.isArray(prop["oneOf"])) {
    return prop["oneOf"].flatMap((option: unknown) => {
      if (typeof option !== "object" || option === null || !("const" in option)) return [];
      const label = "title" in option ? str(option.title) : undefined;
      return [{ value: String(option.const), label: label ?? String(option.const) }];
    });
  }
  return undefined;
}

/** One labelled field for the property `name`; its control carries `name` and a `data-kind` that collectAnswer reads. */
export function elicitationField(
  name: string,
  prop: Record<string, unknown>,
  required: boolean,
  classes: FieldClasses = {},
): HTMLElement {
  const title = str(prop["title"]) ?? name;
  const hint = str(prop["description"]);
  const type = str(prop["type"]);
  if (type === "boolean") {
    const box = el("input", { type: "checkbox", name, "data-kind": "boolean" });
    box.checked = prop["default"] === true;
    return el("label", { class: classes.check, title: hint }, box, title);
  }
  const options = choices(prop);
  let control: HTMLInputElement | HTMLSelectElement;
  if (options)
    control = el(
      "select",
      { name, "data-kind": "string" },
      ...options.map((option) => el("option", { value: option.value }, option.label)),
    );
  else if (type === "number" || type === "integer")
    control = el("input", { type: "number", name, "data-kind": "number", step: type === "integer" ? "1" : undefined });
  else control = el("input", { type: "text", name, "data-kind": "string" });
  const initial = prop["default"];
  if (typeof initial === "string" || typeof initial === "number") control.value = String(initial);
  control.required = required;
  return el("label", { class: classes.field, title: hint }, `${title}${required ? " *" : ""}`, control);
}

/** The answer the fields of `form` hold now: every checkbox, and every other field that has a value. */
export function collectAnswer(form: HTMLFormElement): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const control of form.querySelectorAll<HTMLInputElement | HTMLSelectElement>("[data-kind]")) {
    const kind = control.dataset["kind"];
    if (kind === "boolean" && control instanceof HTMLInputElement) content[control.name] = control.checked;
    else if (kind === "number" && control instanceof HTMLInputElement && control.value !== "")
      content[control.name] = control.valueAsNumber;
    else if (kind === "string" && control.value !== "") content[control.name] = control.value;
  }
  return content;
}
