// The template's job.caller: what its auth knew of the caller (the principal and the API key's name),
// never the key itself.
import { describe, expect, it } from "vitest";
import { readSettings } from "../../src/config";
import { resolvePrincipal } from "../../src/http/auth";
import type { TemplateBindings } from "../../src/http/env";

// A cast as the webhook test makes: resolvePrincipal reads OAUTH_KV only with AUTH_MODE=oauth: an API-key Worker's env needs no binding here.
const bindings = {} as unknown as TemplateBindings;

describe("the template's caller", () => {
  it("is the principal and its API key's name, not the key", async () => {
    const settings = readSettings({ API_KEYS: "alice:sk-alice-secret-123" });
    const request = new Request("https://tasks.example/mcp", {
      headers: { Authorization: "Bearer sk-alice-secret-123" },
    });
    const result = await resolvePrincipal(request, bindings, settings);
    expect(result).toMatchObject({ ok: true, principal: "alice", caller: { principal: "alice", apiKeyName: "alice" } });
    expect(JSON.stringify(result)).not.toContain("sk-alice-secret-123");
  });

  it("is the anonymous principal on loopback without auth", async () => {
    const result = await resolvePrincipal(new Request("http://127.0.0.1:8787/mcp"), bindings, readSettings({}));
    expect(result).toMatchObject({ ok: true, caller: { principal: expect.any(String) } });
  });
});
