/**
 * The browser pages built from ui/ (the console, the task card): static assets of this Worker
 * (wrangler.toml `[assets]`, built into dist/pages/ by scripts/build-ui.mjs), read through the
 * ASSETS binding rather than bundled into the Worker's script, which they would more than double
 * (docs/bundle.md). `run_worker_first` keeps them off the public routes: only the Worker serves them.
 */
export type PageName = "console" | "task-card";

// Read once per isolate: a deployment's pages never change under it.
const pages = new Map<PageName, Promise<string>>();

/** The page's HTML. Throws if the page was never built (`npm run build:ui` builds it). */
export function readPage(env: Env, name: PageName): Promise<string> {
  let page = pages.get(name);
  if (!page) {
    page = fetchPage(env, name);
    // A failed read is not remembered: the next request tries again.
    page.catch(() => pages.delete(name));
    pages.set(name, page);
  }
  return page;
}

async function fetchPage(env: Env, name: PageName): Promise<string> {
  // The host is a placeholder: the binding serves by path only.
  const response = await env.ASSETS.fetch(`https://assets.invalid/${name}.html`);
  if (!response.ok) throw new Error(`The ${name} page is missing from the Worker's assets (${response.status}): run npm run build:ui before wrangler dev or deploy.`);
  return response.text();
}
