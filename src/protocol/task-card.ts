/**
 * The task card: one MCP App (`ui://` resource, ext-apps spec 2026-01-26) that every
 * task-capable tool names in its listing, so chat clients that render MCP Apps show the
 * call's task live beside the tool result. Era-free: both protocol adapters list and serve it.
 */
import type { JsonObject } from "../json";
import { readTaskCardPage } from "../pages";

export const TASK_CARD_URI = "ui://mcp-task-worker/task-card.html";
export const MCP_APP_MIME_TYPE = "text/html;profile=mcp-app";

/**
 * The card's script is inlined and it talks only to its host (postMessage), so it needs no
 * origin at all: empty lists are the spec's secure default, stated rather than implied.
 */
const TASK_CARD_RESOURCE_META: JsonObject = {
  ui: { csp: { connectDomains: [], resourceDomains: [], frameDomains: [], baseUriDomains: [] }, prefersBorder: true },
};

/**
 * `_meta` of a task-capable tool's listing: the host renders the card for its calls. The flat
 * `ui/resourceUri` is the spec's deprecated form, which older hosts read; ext-apps' own
 * `registerAppTool` writes both too.
 */
export const taskCardToolMeta = (): JsonObject => ({
  ui: { resourceUri: TASK_CARD_URI },
  "ui/resourceUri": TASK_CARD_URI,
});

/** `_meta` of a tool only the card calls: hosts keep it out of the model's tool list. */
export const appOnlyToolMeta = (): JsonObject => ({ ui: { visibility: ["app"] } });

/** The card's `resources/list` entry. */
export function taskCardResource(): JsonObject {
  return {
    uri: TASK_CARD_URI,
    name: "task-card",
    title: "Task card",
    description:
      "A live view of a tool call's task (status, progress, steps, log, result, Cancel) for clients that render MCP Apps.",
    mimeType: MCP_APP_MIME_TYPE,
    _meta: TASK_CARD_RESOURCE_META,
  };
}

/** Whether this Worker bundles the card (the template's does; src/pages says why an adopter's does not). */
export const servesTaskCard = (): boolean => readTaskCardPage() !== undefined;

export const isTaskCardUri = (uri: string): boolean => uri === TASK_CARD_URI;

/**
 * `resources/read` contents of the card (the page is built into the Worker's script, src/pages), or
 * undefined where the Worker does not serve it (an adopter's: its lanes never route a card read here).
 */
export function readTaskCard(): JsonObject[] | undefined {
  const text = readTaskCardPage();
  if (text === undefined) return undefined;
  return [{ uri: TASK_CARD_URI, mimeType: MCP_APP_MIME_TYPE, text, _meta: TASK_CARD_RESOURCE_META }];
}
