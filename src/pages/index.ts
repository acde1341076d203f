/**
 * The browser pages built from ui/ (the console, the task card), part of the Worker's script:
 * scripts/build-ui.mjs writes each as one self-contained HTML file into dist/pages/, and wrangler
 * bundles an `.html` import as a text module (its default rule). Carrying them in the script keeps
 * `[assets]` out of wrangler.toml, and with it the asset router every request would pass through
 * first (docs/plain-path.md); the task card speaks MCP Apps itself to fit (docs/bundle.md).
 */
import consolePage from "../../dist/pages/console.html";
import taskCardPage from "../../dist/pages/task-card.html";

export type PageName = "console" | "task-card";

const pages: Record<PageName, string> = { console: consolePage, "task-card": taskCardPage };

/** The page's HTML, fixed at build time. */
export const readPage = (name: PageName): string => pages[name];
