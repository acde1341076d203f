// readSettings: every var parsed into one Settings, with docs/settings.md's defaults; an unset or
// blank var takes its default, any other value it does not take is refused (kinds: settings-kinds.test.ts).
import { describe, expect, it } from "vitest";
import { readSettings } from "../../src/config";

describe("readSettings", () => {
  it("gives every documented default for an empty env", () => {
    const settings = readSettings({});
    expect(settings).toMatchObject({
      inlineWaitMs: 10_000,
      defaultTtlMs: 86_400_000,
      maxTtlMs: 604_800_000,
      pollIntervalMs: 1000,
      sessionIdleTtlMs: 86_400_000,
      authMode: "apikeys",
      apiKeys: undefined,
      authConfigured: false,
      identityProvider: "stand-in",
      github: { clientId: "", clientSecret: "", webUrl: "https://github.com", apiUrl: "https://api.github.com" },
      allowAnonymous: false,
      allowedOrigins: [],
      keepaliveMs: 25_000,
      workflowCheckMs: 60_000,
      workflowNudge: false,
      personFloorMs: 1000,
      transitionLog: "lines",
      webhooks: { allowLoopback: false, allowedPorts: [], retryBaseSeconds: 10, maxAttempts: 14 },
    });
    expect(settings.webhooks).not.toHaveProperty("secret");
  });

  it("falls back on unset or blank integers and reads the rest as whole numbers", () => {
    const settings = readSettings({
      INLINE_WAIT_MS: "",
      POLL_INTERVAL_MS: " 250 ",
      LEASE_MS: undefined,
      WEBHOOK_MAX_ATTEMPTS: 100,
      RATE_LIMIT_PER_MINUTE: null,
      PERSON_FLOOR_MS: "5000",
    });
    expect(settings).toMatchObject({
      inlineWaitMs: 10_000,
      pollIntervalMs: 250,
      personFloorMs: 5000,
      leaseMs: 30_000,
      rateLimitPerMinute: 3000,
      problems: [],
    });
    expect(settings.webhooks.maxAttempts).toBe(100);
  });

  it("refuses a malformed or out-of-range integer, naming the var and what it accepts", () => {
    const settings = readSettings({
      INLINE_WAIT_MS: "abc",
      POLL_INTERVAL_MS: "99",
      KEEPALIVE_MS: "1500.9",
      WEBHOOK_MAX_ATTEMPTS: 500,
      MAX_TTL_MS: "Infinity",
    });
    const fix = "; fix it in wrangler.toml [vars], .dev.vars or --var.";
    expect(settings.problems).toEqual([
      `INLINE_WAIT_MS is "abc", but must be a whole number, at least 0${fix}`,
      `MAX_TTL_MS is "Infinity", but must be a whole number, at least 1000${fix}`,
      `POLL_INTERVAL_MS is "99", but must be a whole number, at least 100${fix}`,
      `KEEPALIVE_MS is "1500.9", but must be a whole number, at least 100${fix}`,
      `WEBHOOK_MAX_ATTEMPTS is 500, but must be a whole number from 1 to 100${fix}`,
    ]);
    // The defaults stand in for what was refused (the HTTP edge serves nothing meanwhile: http/app.ts).
    expect(settings).toMatchObject({
      inlineWaitMs: 10_000,
      pollIntervalMs: 1000,
      keepaliveMs: 25_000,
      maxTtlMs: 604_800_000,
    });
  });

  it("reads words case-blind (TOML booleans too), lists and flags", () => {
    const settings = readSettings({
      AUTH_MODE: " OAuth ",
      ALLOW_ANONYMOUS: true,
      OAUTH_IDENTITY_PROVIDER: "GitHub",
      GITHUB_URL: " https://ghe.example/ ",
      ALLOWED_HOSTS: "A.example, ,b.example",
      TRANSITION_LOG: "Batched",
      WORKFLOW_NUDGE: "true",
      WEBHOOK_SECRET: "whsec_x",
      WEBHOOK_ALLOW_LOOPBACK: "yes",
      WEBHOOK_ALLOWED_PORTS: "8443, ,443",
    });
    expect(settings).toMatchObject({
      authMode: "oauth",
      authConfigured: true,
      allowAnonymous: true,
      identityProvider: "github",
      allowedHosts: ["a.example", "b.example"],
      transitionLog: "batched",
      workflowNudge: true,
      problems: [],
    });
    expect(settings.github.webUrl).toBe("https://ghe.example");
    expect(settings.webhooks).toEqual({
      secret: "whsec_x",
      allowLoopback: true,
      allowedPorts: [8443, 443],
      retryBaseSeconds: 10,
      maxAttempts: 14,
    });
  });

  it("keeps API_KEYS as set, and only a non-blank one configures auth", () => {
    expect(readSettings({ API_KEYS: " a:tok " })).toMatchObject({ apiKeys: " a:tok ", authConfigured: true });
    expect(readSettings({ API_KEYS: "  " })).toMatchObject({ apiKeys: undefined, authConfigured: false });
  });
});
