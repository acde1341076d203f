/**
 * The browser pages built from ui/ (the console, the task card), part of the Worker's script:
 * scripts/build-ui.mjs writes each as one self-contained HTML file into dist/pages/, and wrangler
 * bundles an `.html` import as a text module (its default rule). Carrying them in the script keeps
 * `[assets]` out of wrangler.toml, and with it the asset router every request would pass through
 * first (docs/plain-path.md); the task card speaks MCP Apps itself to fit (docs/bundle.md).
 *
 * Each page is its own module, imported only by what serves it: the console by its route
 * (src/http/console.ts), the card by the template's Worker (src/package/create-task-worker.ts
 * installs it here). The adopter lanes share the protocol code that reads the card but never route
 * a read of it to the engine, so their bundles carry neither page (35 KiB gzip, docs/adopting.md).
 */
let taskCard: string | undefined;

/** Called once at module load by the module that bundles the card (./task-card.ts). */
export function installTaskCard(html: string): void {
  taskCard = html;
}

/** The card's HTML, fixed at build time; undefined in a Worker that does not serve it (an adopter's). */
export const readTaskCardPage = (): string | undefined => taskCard;
