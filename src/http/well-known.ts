/**
 * RFC 9728 protected-resource metadata, and the 401 challenge that points at it: how a client
 * learns to authenticate. Served at the root and, for path-aware clients, with the `/mcp` suffix.
 */
import { Hono } from "hono";
import type { Settings } from "../config";
import type { AppEnv } from "./env";

export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

/** The MCP endpoint is the protected resource; the plain task view shares its tokens. */
export const resourceUrl = (request: Request): string => `${new URL(request.url).origin}/mcp`;

export const resourceMetadataUrl = (request: Request): string =>
  `${new URL(request.url).origin}${PROTECTED_RESOURCE_PATH}`;

export function protectedResourceMetadata(request: Request, settings: Settings): Record<string, unknown> {
  const origin = new URL(request.url).origin;
  return {
    resource: resourceUrl(request),
    resource_name: "mcp-task-worker",
    bearer_methods_supported: ["header"],
    // API keys are bearer tokens handed out by the operator: no authorization server to discover.
    ...(settings.authMode === "oauth" && { authorization_servers: [origin] }),
  };
}

/** `Authorization: Bearer <token>`; undefined when absent or another scheme. */
export function bearerToken(request: Request): string | undefined {
  const header = request.headers.get("Authorization");
  const match = header ? /^Bearer +([\x21-\x7e]{1,4096}) *$/i.exec(header) : null;
  return match?.[1];
}

/** RFC 6750 §3 challenge, pointing clients at the RFC 9728 document (MCP authorization spec). */
export function unauthorized(request: Request, invalid: boolean): Response {
  const params = [`resource_metadata="${resourceMetadataUrl(request)}"`];
  if (invalid)
    params.unshift('error="invalid_token"', 'error_description="The access token is not valid for this server"');
  const message = invalid
    ? "The bearer token is not valid for this server. Check the token, or ask its operator for a new one."
    : "Authentication required: send Authorization: Bearer <token>.";
  return Response.json(
    { error: invalid ? "invalid_token" : "unauthorized", message },
    { status: 401, headers: { "WWW-Authenticate": `Bearer ${params.join(", ")}` } },
  );
}

export const wellKnownRoutes = new Hono<AppEnv>();

for (const path of [PROTECTED_RESOURCE_PATH, `${PROTECTED_RESOURCE_PATH}/mcp`]) {
  wellKnownRoutes.get(path, (c) =>
    c.json(protectedResourceMetadata(c.req.raw, c.get("settings")), 200, {
      "Cache-Control": "public, max-age=300",
      "Access-Control-Allow-Origin": "*",
    }),
  );
}
