/**
 * The consent page of AUTH_MODE=oauth with a real identity provider: before the browser is sent
 * to GitHub, the user sees which client asks (its verified domain for a CIMD client), where the
 * tokens will go, and approves or declines. Without it a GitHub user who once approved this server
 * would hand a grant to any client that asks (the confused deputy of the MCP security guidance).
 * Every client-supplied string is escaped; the page has no script and may not be framed.
 */
import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

const STYLE =
  "body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem}dt{font-weight:600}dd{margin:0 0 .75rem;overflow-wrap:anywhere}button{font:inherit;padding:.5rem 1rem;margin-right:.5rem}.warn{color:#a40}";

export interface ConsentPage {
  consent: ConsentDescription;
  /** The handle `beginConsent()` gave, posted back with the answer. */
  handle: string;
  /** Where the form posts (this server's /authorize). */
  action: string;
  /** The identity provider's name, for the button ("Continue with GitHub"). */
  provider: string;
  /** Origins the form's answer may redirect to (CSP form-action also governs redirects). */
  formTargets: string[];
  headers: Headers;
}

export function consentPage(page: ConsentPage): Response {
  const { consent } = page;
  const who = consent.clientDomain
    ? `${escapeHtml(consent.clientName)} (${escapeHtml(consent.clientDomain)})`
    : `${escapeHtml(consent.clientName)} <small>(name not verified)</small>`;
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>Allow access?</title><style>${STYLE}</style></head><body>
<h1>Allow ${who} to use this MCP server?</h1>
<dl><dt>Client ID</dt><dd>${escapeHtml(consent.clientId)}</dd>
<dt>Tokens go to</dt><dd>${escapeHtml(consent.redirectHost)}${consent.redirectIsLoopback ? ' <span class="warn">(an app on your computer: any local program could be listening)</span>' : ""}</dd>
<dt>Access</dt><dd>${consent.scope.length > 0 ? consent.scope.map(escapeHtml).join(", ") : "mcp"}: call its tools and read your tasks</dd></dl>
<form method="post" action="${escapeHtml(page.action)}"><input type="hidden" name="handle" value="${escapeHtml(page.handle)}">
<button name="decision" value="approve">Continue with ${escapeHtml(page.provider)}</button><button name="decision" value="deny">Cancel</button></form>
</body></html>`;
  const headers = new Headers(page.headers);
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  headers.set(
    "Content-Security-Policy",
    `default-src 'none'; style-src 'unsafe-inline'; form-action 'self' ${page.formTargets.join(" ")}; frame-ancestors 'none'`,
  );
  headers.set("X-Frame-Options", "DENY");
  return new Response(body, { status: 200, headers });
}
