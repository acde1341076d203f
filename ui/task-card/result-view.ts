/**
 * A tool result as the card shows it: text blocks as text, images inline, links by name, and
 * `structuredContent` as a small key/value table. Everything goes in as text nodes, never HTML.
 */
import { el } from "../shared/dom";
import type { ToolResult } from "./data";

const MAX_CELL = 240;
const MAX_ROWS = 12;

/** A value for one table cell: strings as they are, anything else as compact JSON, cut short. */
export function cellText(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  return text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text;
}

function contentNode(block: ToolResult["content"][number]): Node | undefined {
  const text = (key: string): string | undefined =>
    typeof block[key] === "string" ? (block[key] as string) : undefined;
  switch (block.type) {
    case "text":
      return el("pre", { class: "result-text" }, text("text") ?? "");
    case "image": {
      const data = text("data");
      const mimeType = text("mimeType");
      // Only inline data: the card loads nothing from the network (its CSP allows data: images).
      return data && mimeType?.startsWith("image/")
        ? el("img", { src: `data:${mimeType};base64,${data}`, alt: "Image from the tool" })
        : undefined;
    }
    case "resource_link":
      return el(
        "div",
        { class: "link" },
        "🔗 ",
        text("title") ?? text("name") ?? "",
        " ",
        el("code", {}, text("uri") ?? ""),
      );
    case "resource": {
      const resource = block["resource"];
      const inner =
        typeof resource === "object" && resource !== null && "text" in resource && typeof resource.text === "string"
          ? resource.text
          : undefined;
      return inner !== undefined ? el("pre", { class: "result-text" }, inner) : undefined;
    }
    default:
      return undefined;
  }
}

export function structuredTable(data: Record<string, unknown>): HTMLTableElement {
  const entries = Object.entries(data);
  const rows = entries
    .slice(0, MAX_ROWS)
    .map(([key, value]) => el("tr", {}, el("th", { scope: "row" }, key), el("td", {}, cellText(value))));
  if (entries.length > MAX_ROWS)
    rows.push(el("tr", {}, el("th", {}, "…"), el("td", {}, `${entries.length - MAX_ROWS} more`)));
  return el("table", { "data-role": "structured" }, el("tbody", {}, ...rows));
}

/** Fills `section` with the result; `error` is a protocol error the task ended with instead. */
export function renderResult(
  section: HTMLElement,
  result: ToolResult | undefined,
  error: { message: string } | undefined,
): void {
  section.replaceChildren();
  section.classList.toggle("is-error", Boolean(error) || result?.isError === true);
  if (error) {
    section.append(el("pre", { class: "result-text" }, error.message));
  } else if (result) {
    for (const block of result.content) {
      const node = contentNode(block);
      if (node) section.append(node);
    }
    // The summary repeats the text for models (docs/model-facing.md): show only the data.
    const { summary: _summary, ...data } = result.structuredContent ?? {};
    if (Object.keys(data).length > 0) section.append(structuredTable(data));
  }
  section.hidden = section.childElementCount === 0;
}
