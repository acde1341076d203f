/**
 * A malformed numeric setting is refused, never replaced by its default (src/config.ts): on a real
 * `wrangler dev` started with INLINE_WAIT_MS=10s, every request but /health answers 503 naming the
 * var, the value it got and what it accepts, and the Worker's log says the same. Every other kind
 * of setting: test/unit/settings-kinds.test.ts; a mistyped AUTH_MODE: test/pool/settings-refused.test.ts.
 */
import { describe, it, vi } from "vitest";
import { ownServer } from "./support/dev-server";
import { until } from "../until";

const server = ownServer({ vars: { INLINE_WAIT_MS: "10s" } });

describe("a malformed numeric setting", () => {
  it("is refused on the first request, naming the setting and what it accepts", async ({ expect }) => {
    const response = await fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({
      error: "settings_invalid",
      message:
        'INLINE_WAIT_MS is "10s", but must be a whole number, at least 0; fix it in wrangler.toml [vars], .dev.vars or --var.' +
        " Until then no request is served.",
    });
    const tasks = await fetch(`${server.url}/tasks`);
    expect(tasks.status).toBe(503);
    // The operator's log says the same.
    const logged = 'setting refused: INLINE_WAIT_MS is "10s", but must be a whole number, at least 0';
    await vi.waitFor(() => expect(server.logs()).toContain(logged), until());
  });

  it("leaves /health up: the process runs, and says what is wrong on every other route", async ({ expect }) => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
  });
});
