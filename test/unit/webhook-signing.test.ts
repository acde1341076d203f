import { describe, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { decodeWebhookSecret, webhookHeaders } from "../../src/webhooks/sign";
import { parseWebhookRegistration } from "../../src/webhooks/registration";
import { webhookRetryDelaySeconds } from "../../src/webhooks/settings";

const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

describe("Standard Webhooks signing", () => {
  it("produces signatures the standardwebhooks package verifies", async ({ expect }) => {
    const key = decodeWebhookSecret(SECRET);
    expect(key).toBeDefined();
    const body = JSON.stringify({ type: "task.completed", data: { taskId: "abc" } });
    const headers = await webhookHeaders(key ?? new Uint8Array(), "abc.7", body);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(SECRET).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it("a tampered body or another secret fails verification", async ({ expect }) => {
    const headers = await webhookHeaders(decodeWebhookSecret(SECRET) ?? new Uint8Array(), "id1", '{"a":1}');
    expect(() => new Webhook(SECRET).verify('{"a":2}', headers)).toThrow();
    expect(() => new Webhook("whsec_" + btoa("another secret of some length")).verify('{"a":1}', headers)).toThrow();
  });

  it("rejects secrets that are not base64", ({ expect }) => {
    expect(decodeWebhookSecret("whsec_")).toBeUndefined();
    expect(decodeWebhookSecret("whsec_not base64!")).toBeUndefined();
    expect(decodeWebhookSecret("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")).toBeDefined();
  });
});

describe("webhook registration", () => {
  const settings = { secret: SECRET, allowLoopback: false, allowedPorts: [], retryBaseSeconds: 10, maxAttempts: 14 };

  it("accepts a url and optional extra events", ({ expect }) => {
    expect(
      parseWebhookRegistration({ url: "https://example.com/h", events: ["progress", "working", "progress"] }, settings),
    ).toEqual({
      ok: true,
      webhook: { url: "https://example.com/h", events: ["progress", "working"] },
    });
  });

  it("refuses unknown events, unknown keys and non-objects with a message naming the shape", ({ expect }) => {
    for (const raw of [
      { url: "https://example.com/h", events: ["completed"] },
      { url: "https://example.com/h", secret: "x" },
      "https://example.com/h",
      { events: [] },
    ]) {
      const check = parseWebhookRegistration(raw, settings);
      expect(check.ok).toBe(false);
      expect(check.ok ? "" : check.message).toMatch(/mcp-task-worker\/webhook/);
    }
  });

  it("refuses every webhook when the server has no secret", ({ expect }) => {
    const { secret: _secret, ...noSecret } = settings;
    const check = parseWebhookRegistration({ url: "https://example.com/h" }, noSecret);
    expect(check.ok ? "" : check.message).toMatch(/WEBHOOK_SECRET/);
  });

  it("backs off exponentially, capped at 12 hours, reaching about a day with the defaults", ({ expect }) => {
    expect([1, 2, 3, 4].map((n) => webhookRetryDelaySeconds(n, 10))).toEqual([10, 20, 40, 80]);
    expect(webhookRetryDelaySeconds(30, 10)).toBe(12 * 3600);
    const total = Array.from({ length: 13 }, (_, i) => webhookRetryDelaySeconds(i + 1, 10)).reduce((a, b) => a + b, 0);
    expect(total / 3600).toBeGreaterThan(20);
    expect(total / 3600).toBeLessThan(30);
  });
});
