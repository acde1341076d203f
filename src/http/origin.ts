/**
 * Who may talk to the server from where: the Host check that stops DNS rebinding against a
 * local dev server, and the `Origin` allow-list that stops foreign web pages (MCP transports spec,
 * "Security Warning": validate Origin, bind local servers to localhost).
 */
import type { MiddlewareHandler } from "hono";
import type { Settings } from "../config";
import type { AppEnv } from "./env";

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/** The one principal of a server with no auth configured: loopback callers (local dev), here and in an adopter's Worker. */
export const ANONYMOUS_PRINCIPAL = "anonymous";

/** localhost, *.localhost, 127.0.0.0/8 and ::1 (RFC 6761 keeps *.localhost on the machine). */
export function isLoopbackHostname(hostname: string): boolean {
  const name = hostname.toLowerCase();
  if (LOOPBACK_NAMES.has(name) || name.endsWith(".localhost")) return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** The hostname of a Host header value ("example.com:8787" → "example.com"), or undefined if malformed. */
export function hostnameOf(host: string | null | undefined): string | undefined {
  // Only the characters a Host may hold, so "localhost@evil.example" or "x/y" cannot pass as loopback.
  if (!host || host.length > 255 || !/^[A-Za-z0-9.\-[\]:]+$/.test(host)) return undefined;
  try {
    return new URL(`http://${host}`).hostname;
  } catch {
    return undefined;
  }
}

/**
 * A request from this machine: addressed to a loopback name, and, where the runtime says who
 * connected, from a loopback address. The Host alone is the client's to write: another machine
 * reaching a dev server bound beyond loopback (`wrangler dev --ip 0.0.0.0`) sends `Host: localhost`
 * as easily. CF-Connecting-IP is the runtime's word: Cloudflare sets it to the client's address, and
 * wrangler dev (miniflare's entry worker) to the socket's peer when the client sent none. One the
 * client did send is kept by wrangler dev, so a dev server open to a network is open to whoever
 * forges it there (docs/security.md). Where nothing says (a test pool's SELF.fetch), the Host decides.
 */
export function isLoopbackRequest(request: Request): boolean {
  const hostname = hostnameOf(request.headers.get("Host") ?? new URL(request.url).host);
  if (hostname === undefined || !isLoopbackHostname(hostname)) return false;
  const peer = request.headers.get("CF-Connecting-IP")?.trim();
  return peer === undefined || peer === "" || isLoopbackAddress(peer);
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 (::ffff:127.x.y.z). */
const isLoopbackAddress = (ip: string): boolean => {
  const address = ip.toLowerCase().replace(/^::ffff:/, "");
  return address === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address);
};

/**
 * The TCP peer is this machine. Only local dev sees that: in production Cloudflare sets
 * CF-Connecting-IP to the client's public address. wrangler dev sets it to the socket peer.
 */
export function fromLoopbackPeer(request: Request): boolean {
  return isLoopbackAddress(request.headers.get("CF-Connecting-IP")?.trim() ?? "");
}

/** A name this server answers to on a loopback socket: a loopback name or one listed in ALLOWED_HOSTS. */
export function isTrustedHost(request: Request, settings: Settings): boolean {
  const hostname = hostnameOf(request.headers.get("Host") ?? new URL(request.url).host);
  if (hostname === undefined) return false;
  return isLoopbackHostname(hostname) || settings.allowedHosts.includes(hostname);
}

/** Same origin, listed in ALLOWED_ORIGINS (or "*"), or a loopback page talking to a loopback server. */
export function isAllowedOrigin(origin: string, request: Request, settings: Settings): boolean {
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return false; // "null" (sandboxed frames, file://) and garbage are foreign
  }
  if (parsed.origin === "null" || parsed.origin !== origin.toLowerCase().replace(/\/$/, "")) return false;
  if (parsed.origin === new URL(request.url).origin) return true;
  if (settings.allowedOrigins.includes("*") || settings.allowedOrigins.includes(parsed.origin)) return true;
  return isLoopbackHostname(parsed.hostname) && isLoopbackRequest(request);
}

const refuse = (status: 403 | 421, error: string, message: string) => Response.json({ error, message }, { status });

/**
 * DNS rebinding: a page on evil.example that re-resolves to 127.0.0.1 reaches the dev server
 * with `Host: evil.example`. On a loopback socket only loopback names (and ALLOWED_HOSTS) are
 * served. ALLOW_ANONYMOUS=true declares the server public on any name, which lifts the check.
 * With no auth configured the same refusal explains the secure default instead.
 */
export const guardHostAndOrigin: MiddlewareHandler<AppEnv> = async (c, next) => {
  const settings = c.get("settings");
  const request = c.req.raw;
  if (!settings.allowAnonymous && !isTrustedHost(request, settings)) {
    if (!settings.authConfigured) return anonymousRefused();
    if (fromLoopbackPeer(request)) {
      return refuse(
        421,
        "host_not_allowed",
        "This server is running locally and only answers to localhost, 127.0.0.1 or [::1] (DNS rebinding protection). To reach it through a tunnel or another name, list that name in ALLOWED_HOSTS.",
      );
    }
  }
  const origin = c.req.header("Origin");
  // No Origin header: not a browser (or a same-origin GET), which this check is not about.
  if (origin !== undefined && !isAllowedOrigin(origin, request, settings)) {
    return refuse(
      403,
      "origin_not_allowed",
      `Browser origin "${origin.slice(0, 200)}" is not allowed. Add it to ALLOWED_ORIGINS (comma-separated) to let that web app call this server.`,
    );
  }
  await next();
};

/** Secure by default: no auth configured means local use only. */
export const anonymousRefused = (): Response =>
  refuse(
    403,
    "auth_not_configured",
    "This server has no authentication configured, so it only serves anonymous requests addressed to a loopback host (localhost, 127.0.0.1, [::1]). " +
      "Set API_KEYS (name:token pairs) or AUTH_MODE=oauth; or set ALLOW_ANONYMOUS=true to let anyone in (see the README's SECURITY section first).",
  );
