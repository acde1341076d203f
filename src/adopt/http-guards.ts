/**
 * What both lanes' wrappers (durable-tasks.ts, mcp-agent-lane.ts) do to the engine's own HTTP
 * answers: the CORS headers agents' handlers give theirs, and the Host and Origin checks the
 * adopter's createMcpHandler makes (agents' handler-stateless.js), with the same options, so a
 * task request meets the guards the adopter tightened for its /mcp and no looser ones.
 */
import { localhostAllowedHostnames } from "@modelcontextprotocol/server";
import { isLoopbackHostname } from "../http/origin";
import type { Refusal } from "./scope";

/** createMcpHandler's options of the same names, given once to durableTasks and applied to every task request. */
export interface RequestGuards {
  /** The `Host` names task requests may carry (createMcpHandler's `allowedHostnames`). */
  allowedHostnames?: readonly string[];
  /** The hostnames a browser `Origin` may have (createMcpHandler's `allowedOriginHostnames`); "*" checks none. */
  allowedOriginHostnames?: readonly string[] | "*";
  /**
   * The page origin the adopter's CORS options name (McpAgent.serve's `corsOptions.origin`):
   * allowed besides the defaults when no list is given, as agents' createMcpHandler counts it.
   */
  corsOrigin?: string | undefined;
}

/** The same defaults as agents' createMcpHandler, so a browser client reads the engine's answers as it reads the rest. */
export function withCors(response: Response): Response {
  if (response.headers.has("Access-Control-Allow-Origin")) return response;
  const headers = new Headers(response.headers);
  headers.set("Access-Control-Allow-Origin", "*");
  headers.set("Access-Control-Expose-Headers", "mcp-session-id");
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

const hostnameOf = (value: string): string | undefined => {
  try {
    return new URL(`http://${value}`).hostname;
  } catch {
    return undefined;
  }
};

/**
 * agents' Host rule: the adopter's list when given; else loopback names on a loopback endpoint and
 * the endpoint's own name on workers.dev; a custom domain is left to Cloudflare's routing.
 */
function hostRefusal(request: Request, allowed: readonly string[] | undefined): Refusal | undefined {
  const { hostname } = new URL(request.url);
  const local = localhostAllowedHostnames();
  const accepted =
    allowed ?? (local.includes(hostname) ? local : hostname.endsWith(".workers.dev") ? [hostname] : undefined);
  if (accepted === undefined) return undefined;
  // The runtime always sends a Host; a Request built without one (a test's) is addressed by its URL.
  const host = request.headers.get("Host") ?? new URL(request.url).host;
  const name = hostnameOf(host);
  if (name !== undefined && accepted.includes(name)) return undefined;
  return {
    status: 403,
    error: "host_not_allowed",
    message: `This server does not answer to the Host ${JSON.stringify(host.slice(0, 100))}.`,
  };
}

/** The SDK's Origin rule (originValidationResponse): a listed hostname, or a `<scheme>://*` entry for a non-web scheme. */
function listedOrigin(origin: string, allowed: readonly string[]): boolean {
  try {
    const { hostname, protocol } = new URL(origin);
    if (hostname === "") return false;
    const schemeWide = protocol !== "http:" && protocol !== "https:" && allowed.includes(`${protocol}//*`);
    return schemeWide || allowed.includes(hostname);
  } catch {
    return false;
  }
}

/** With no list: a loopback page, or a page of the Worker's own host; never another site's. */
function ownOrLoopbackOrigin(origin: string, request: Request): boolean {
  try {
    const { hostname, host } = new URL(origin);
    return isLoopbackHostname(hostname) || host === new URL(request.url).host;
  } catch {
    return false;
  }
}

/** The CORS options' own origin (an http(s) URL; "*" and anything else names no page). */
function corsOriginHostname(corsOrigin: string | undefined): string | undefined {
  if (corsOrigin === undefined) return undefined;
  try {
    const { protocol, hostname } = new URL(corsOrigin);
    return (protocol === "http:" || protocol === "https:") && hostname !== "" ? hostname : undefined;
  } catch {
    return undefined;
  }
}

function originRefusal(request: Request, guards: RequestGuards): Refusal | undefined {
  const origin = request.headers.get("Origin");
  const allowed = guards.allowedOriginHostnames;
  // No Origin: not a browser, which this check is not about (as agents and the SDK treat it).
  if (origin === null || origin === "" || allowed === "*") return undefined;
  const corsHostname = corsOriginHostname(guards.corsOrigin);
  const passes =
    allowed === undefined
      ? ownOrLoopbackOrigin(origin, request) || (corsHostname !== undefined && listedOrigin(origin, [corsHostname]))
      : listedOrigin(origin, allowed);
  if (passes) return undefined;
  return { status: 403, error: "origin_not_allowed", message: "Requests from another site's web page are refused." };
}

/** Why a task request may not reach the engine from where it comes, or undefined when it may. */
export function guardRefusal(request: Request, guards: RequestGuards): Refusal | undefined {
  return hostRefusal(request, guards.allowedHostnames) ?? originRefusal(request, guards);
}
