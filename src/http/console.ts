/**
 * `GET /`: the task console, one self-contained page (ui/console/, built into the Worker's script,
 * src/pages). The shell loads without auth; its script asks for a token only when the
 * data routes (`/tasks…`) answer 401. A strict CSP lets in exactly the page's own inline script
 * and style, and lets it talk to this origin only.
 */
import { Hono } from "hono";
import { consolePage } from "../pages/console";
import type { AppEnv } from "./env";

/** SHA-256 CSP sources (`'sha256-…'`) of the inline `<script>` and `<style>` blocks of a page. */
export async function inlineHashes(html: string): Promise<{ scripts: string[]; styles: string[] }> {
  const digest = async (text: string) => {
    const bytes = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
    return `'sha256-${btoa(String.fromCharCode(...bytes))}'`;
  };
  const blocks = (tag: string) =>
    [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g"))].map((match) => match[1] ?? "");
  return {
    scripts: await Promise.all(blocks("script").map(digest)),
    styles: await Promise.all(blocks("style").map(digest)),
  };
}

export function contentSecurityPolicy(hashes: { scripts: string[]; styles: string[] }): string {
  return [
    "default-src 'none'",
    `script-src ${hashes.scripts.join(" ")}`,
    `style-src ${hashes.styles.join(" ")}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

// Hashed once per isolate: the page is fixed at build time.
// The headers are kept, never the promise: no request awaits another's work (docs/core.md).
let hashed: { page: string; headers: Record<string, string> } | undefined;
async function pageHeaders(page: string): Promise<Record<string, string>> {
  if (hashed?.page === page) return hashed.headers;
  const hashes = await inlineHashes(page);
  const headers = {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": contentSecurityPolicy(hashes),
    "Cache-Control": "no-cache",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
  };
  hashed = { page, headers };
  return headers;
}

export const consoleRoutes = new Hono<AppEnv>();

consoleRoutes.get("/", async (c) => {
  const page = consolePage;
  return new Response(page, { headers: await pageHeaders(page) });
});
