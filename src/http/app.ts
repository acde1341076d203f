/**
 * The Worker's HTTP surface (hono): health, the MCP endpoint (served by the protocol adapter that
 * src/index.ts plugs in with serveMcp) and the plain task view. Stateless: everything that must
 * survive lives in a Durable Object.
 */
import { Hono, type Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { readSettings } from "../config";
import { authenticate } from "./auth";
import { callbackRoutes } from "./callback-route";
import { consoleRoutes } from "./console";
import { cors } from "./cors";
import { oauthRoutes } from "./oauth-routes";
import { guardHostAndOrigin } from "./origin";
import { rateLimit } from "./rate-limit";
import { wellKnownRoutes } from "./well-known";
import type { AppEnv } from "./env";
import type { McpEndpoint, McpRequest } from "./mcp-endpoint";
import type { ToolRegistry } from "../protocol/tool-registry";
import { taskRoutes } from "./task-routes";

export const app = new Hono<AppEnv>();

/** The bare route: no auth, no storage, no settings read. Also the benchmark's baseline. */
app.get("/health", (c) => c.json({ ok: true }));

app.use("*", async (c, next) => {
  c.set("requestId", crypto.randomUUID());
  const settings = readSettings(c.env);
  // The operator's mistake, as auth_misconfigured (auth.ts): fail closed and say what to fix, never guess a value.
  if (settings.problems.length > 0) {
    const message = `${settings.problems.join(" ")} Until then no request is served.`;
    return c.json({ error: "settings_invalid", message }, 503);
  }
  c.set("settings", settings);
  await next();
});

// Order matters: Host/Origin first (DNS rebinding, foreign pages), then CORS (preflights carry
// no credentials; 401s need CORS headers to be readable), then discovery, then auth and limits.
app.use("*", guardHostAndOrigin);
app.use("/mcp", cors);
app.use("/tasks/*", cors);
app.route("/", wellKnownRoutes);
app.route("/", oauthRoutes);
// The console's page shell needs no auth: its script asks for a token when /tasks answers 401.
app.route("/", consoleRoutes);
// A job's callbacks: no auth, the URL is the capability (callback-route.ts).
app.route("/", callbackRoutes);
app.use("/mcp", authenticate, rateLimit);
app.use("/tasks/*", authenticate, rateLimit);

app.route("/tasks", taskRoutes);

app.notFound((c) =>
  c.json({ error: "not_found", message: `No route for ${c.req.method} ${new URL(c.req.url).pathname}.` }, 404),
);

app.onError((error, c) => {
  if (error instanceof HTTPException) return error.getResponse();
  const requestId = c.get("requestId");
  console.error("unhandled error", requestId, error);
  return c.json({ error: "internal_error", message: "Internal error.", requestId }, 500);
});

const mcpRequest = (c: Context<AppEnv>, tools: ToolRegistry): McpRequest => ({
  request: c.req.raw,
  env: c.env,
  settings: c.get("settings"),
  principal: c.get("principal"),
  ...(c.get("caller") !== undefined && { caller: c.get("caller") }),
  tools,
  baseUrl: new URL(c.req.url).origin,
  waitUntil: (promise) => c.executionCtx.waitUntil(promise),
});

/** Serves `/mcp` with a protocol adapter; the middleware above (origin, CORS, auth, limits) runs first. */
export function serveMcp(endpoint: McpEndpoint, tools: ToolRegistry): void {
  app.post("/mcp", (c) => endpoint.post(mcpRequest(c, tools)));
  app.get("/mcp", (c) => endpoint.get(mcpRequest(c, tools)));
  app.delete("/mcp", (c) => endpoint.delete(mcpRequest(c, tools)));
}
