// A CALLER_KEY that is set but malformed (test/fixtures/adopter): here a key made with
// `openssl rand -hex 32` instead of `-base64`, which is base64 of 48 bytes. The client calling a
// durable tool gets a JSON-RPC error naming the secret and how to put a good one (503, no stack, not
// the value); the adopter's own tool keeps working; the operator's log names it once, not its value.
import { describe, expect, it, vi } from "vitest";
import { adopterConfig } from "./support/adopter";
import { ownServer } from "./support/dev-server";
import { errorOf, modern, resultOf, TASKS } from "./support/modern";
import { until } from "../until";

const HEX_KEY = [...crypto.getRandomValues(new Uint8Array(32))].map((b) => b.toString(16).padStart(2, "0")).join("");
const server = ownServer(async () => ({
  config: await adopterConfig("test/fixtures/adopter"),
  vars: { CALLER_KEY: HEX_KEY },
}));

const alice = { token: "alice-token", headers: { "X-Upstream-Key": "up-alice" } };
const FIX = "put a new one with `wrangler secret put CALLER_KEY`";

describe("a malformed CALLER_KEY", () => {
  it.for([
    ["as a task", TASKS],
    ["as a plain call", {}],
  ] as const)("refuses a durable tool's call %s in words naming the secret and its fix", async ([, capabilities]) => {
    const args = { api: "http://127.0.0.1:9/", pauseSeconds: 0 };
    const reply = await modern(
      server.url,
      "tools/call",
      { name: "upstream_report", arguments: args },
      { capabilities, ...alice },
    );
    expect(reply.status).toBe(503);
    const error = errorOf(reply);
    expect(error.message).toContain("CALLER_KEY is set to a value, but must be 32 random bytes in base64");
    expect(error.message).toContain(FIX);
    expect(error.data).toEqual({ error: "settings_invalid" });
    expect(reply.text).not.toContain(HEX_KEY);
    expect(reply.text).not.toMatch(/\bat \S+ \(/); // no stack frame
  });

  it("leaves the adopter's own tools working, and tells the operator in its log, without the value", async () => {
    const echo = await modern(server.url, "tools/call", { name: "echo", arguments: { text: "hi" } }, alice);
    expect(resultOf(echo)).toMatchObject({ content: [{ type: "text", text: "hi" }] });
    // wrangler dev hands the Worker's console on after its own lines: waited for, not assumed.
    await vi.waitFor(
      () =>
        expect(server.logs()).toContain(
          "setting refused: CALLER_KEY is set to a value, but must be 32 random bytes in base64",
        ),
      until(30),
    );
    expect(server.logs()).not.toContain(HEX_KEY);
  });
});
