/**
 * A mistyped AUTH_MODE inside workerd, the Worker called directly: `oauht` used to read as "not
 * oauth", so with no API keys `tools/list` answered 200 with no token where `oauth` answers 401. Now
 * every request but /health gets the 503 naming the setting, its value and what it takes.
 * (test/e2e/settings-refused.test.ts shows the same for a number on a real `wrangler dev`.)
 */
import { env } from "cloudflare:workers";
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { describe, it, vi } from "vitest";
import worker from "../../src/index";

const ORIGIN = "http://127.0.0.1:8787";

/** A request to the Worker with `vars` over the pool's env (a fresh env object: settings are parsed per env). */
async function call(vars: Record<string, string>, path: string, init?: RequestInit): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${ORIGIN}${path}`, init), { ...env, ...vars }, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}
const toolsList = (vars: Record<string, string>) =>
  call(vars, "/mcp", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
  });

describe("AUTH_MODE=oauht", () => {
  it("is refused with the 503 naming it, where oauth asks for a token: never served without auth", async ({
    expect,
  }) => {
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const refused = await toolsList({ AUTH_MODE: "oauht" });
    log.mockRestore();
    expect(refused.status).toBe(503);
    expect(await refused.json()).toEqual({
      error: "settings_invalid",
      message:
        'AUTH_MODE is "oauht", but must be `apikeys` or `oauth`; fix it in wrangler.toml [vars], .dev.vars or --var.' +
        " Until then no request is served.",
    });
    expect((await toolsList({ AUTH_MODE: "oauth" })).status).toBe(401);
  });

  it("leaves /health up", async ({ expect }) => {
    const response = await call({ AUTH_MODE: "oauht" }, "/health");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
  });
});
