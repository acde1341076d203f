/**
 * The host's look applied to the card (MCP Apps "Theming"), as ext-apps' helpers do it: the theme
 * as `data-theme` and `color-scheme`, the host's CSS variables on the root element, and its font
 * rules once.
 */
import type { HostContext } from "./schema";

export function applyHostStyle(context: HostContext): void {
  const root = document.documentElement;
  if (context.theme) {
    root.setAttribute("data-theme", context.theme);
    root.style.colorScheme = context.theme;
  }
  for (const [name, value] of Object.entries(context.styles?.variables ?? {}))
    if (value !== undefined) root.style.setProperty(name, value);
  const fonts = context.styles?.css?.fonts;
  if (fonts && !document.getElementById("__mcp-host-fonts")) {
    const style = document.createElement("style");
    style.id = "__mcp-host-fonts";
    style.textContent = fonts;
    document.head.append(style);
  }
}
