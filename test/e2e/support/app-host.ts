/**
 * A test chat host for MCP Apps: a loopback page (app-host-page.ts, bundled here) that mounts
 * a view's HTML in sandboxed iframes, serving it with the Content-Security-Policy its
 * resource's `_meta.ui.csp` asks for (built as the spec's host does), and hands the views'
 * tool calls to the test (which forwards them to the server with the MCP client).
 */
import { createServer, type Server } from "node:http";
import { resolve } from "node:path";
import { build } from "esbuild";
import type { Browser, FrameLocator, Page } from "playwright-core";
import type { CallToolParams, CallToolResult, MountOptions } from "./app-host-page";

export type { CallToolParams, CallToolResult, MountOptions };

export interface AppCsp {
  connectDomains?: string[];
  resourceDomains?: string[];
  frameDomains?: string[];
  baseUriDomains?: string[];
}

/** The CSP a host builds from `_meta.ui.csp` (MCP Apps 2026-01-26, "Content Security Policy Enforcement"). */
export function cspFor(csp: AppCsp): string {
  const list = (domains: string[] | undefined) => (domains ?? []).join(" ");
  const resources = list(csp.resourceDomains);
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `connect-src ${list(csp.connectDomains) || "'none'"}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `frame-src ${list(csp.frameDomains) || "'none'"}`,
    "object-src 'none'",
    `base-uri ${list(csp.baseUriDomains) || "'self'"}`,
  ].join("; ");
}

export type ToolCallHandler = (viewId: string, params: CallToolParams) => Promise<CallToolResult>;

export interface AppHost {
  page: Page;
  /** Every tool call a view made, in order. */
  calls: { viewId: string; name: string; arguments: Record<string, unknown> }[];
  /** Problems the browser reported (CSP violations, uncaught errors), for assertions and diagnosis. */
  problems: string[];
  mount(options: MountOptions): Promise<FrameLocator>;
  input(viewId: string, args: Record<string, unknown>): Promise<void>;
  result(viewId: string, result: CallToolResult): Promise<void>;
  teardown(viewId: string): Promise<void>;
  /** The host switches theme: a `ui/notifications/host-context-changed` to the view. */
  theme(viewId: string, theme: "light" | "dark"): Promise<void>;
  close(): Promise<void>;
}

const HOST_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Test host</title><style>
  body { margin: 0; background: #f3f2ee; font-family: system-ui, sans-serif; }
  #views { display: flex; flex-wrap: wrap; align-items: flex-start; gap: 20px; padding: 20px; }
  iframe { border: 0; display: block; height: 120px; background: transparent; }
</style></head><body><div id="views"></div><script>__SCRIPT__</script></body></html>`;

async function hostScript(): Promise<string> {
  const result = await build({
    entryPoints: [resolve(import.meta.dirname, "app-host-page.ts")],
    bundle: true,
    write: false,
    format: "iife",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
  });
  const [output] = result.outputFiles;
  if (!output) throw new Error("esbuild produced no host script.");
  return output.text.replace(/<\/script/gi, "<\\/script");
}

export async function startAppHost(
  browser: Browser,
  view: { html: string; csp: AppCsp },
  onToolCall: ToolCallHandler,
): Promise<AppHost> {
  const script = await hostScript();
  const page = HOST_PAGE.replace("__SCRIPT__", () => script);
  const server: Server = createServer((request, response) => {
    if (request.url === "/") {
      response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(page);
    } else if (request.url?.startsWith("/view")) {
      response
        .writeHead(200, { "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": cspFor(view.csp) })
        .end(view.html);
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const address = server.address();
  if (typeof address !== "object" || !address) throw new Error("The host page server has no port.");

  const context = await browser.newContext({ viewport: { width: 1100, height: 800 }, deviceScaleFactor: 2 });
  const tab = await context.newPage();
  const host: AppHost = {
    page: tab,
    calls: [],
    problems: [],
    async mount(options) {
      await tab.evaluate((o) => window.testHost.mount(o), options);
      return tab.frameLocator(`iframe[data-view="${options.id}"]`);
    },
    input: (viewId, args) => tab.evaluate(([id, a]) => window.testHost.input(id, a), [viewId, args] as const),
    result: (viewId, result) => tab.evaluate(([id, r]) => window.testHost.result(id, r), [viewId, result] as const),
    teardown: (viewId) => tab.evaluate((id) => window.testHost.teardown(id), viewId),
    theme: (viewId, theme) => tab.evaluate(([id, t]) => window.testHost.theme(id, t), [viewId, theme] as const),
    async close() {
      await context.close();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
  tab.on("console", (message) => {
    if (message.type() === "error") host.problems.push(message.text());
  });
  tab.on("pageerror", (error) => host.problems.push(error.message));
  await tab.exposeFunction("hostCallTool", async (viewId: string, params: CallToolParams) => {
    host.calls.push({ viewId, name: params.name, arguments: params.arguments ?? {} });
    return onToolCall(viewId, params);
  });
  await tab.goto(`http://127.0.0.1:${address.port}/`);
  return host;
}
