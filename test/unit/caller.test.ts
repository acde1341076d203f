// What a task keeps of its caller (job.caller): sealed under CALLER_KEY and bound to its principal,
// opened for every run, readable after a rotation through CALLER_KEY_PREVIOUS, and, when it cannot be
// had, words the tool meets; a tool's `caller` schema types and checks it.
import { describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { openCaller, sealCaller } from "../../src/jobs/caller-seal";
import { defineTool } from "../../src/jobs/define-tool";
import { inlineJobHost } from "../../src/jobs/inline-host";
import { runTool } from "../../src/jobs/runner";
import { runIdentity } from "../../src/jobs/run-identity";
import type { JsonObject } from "../../src/json";

const key = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32))));
const KEY = key();
// The Worker's env as a run gets it: a test's has only the secret (the cast the template's webhook test makes too).
const env = { CALLER_KEY: KEY } as unknown as Cloudflare.Env;

const hostWith = (stored: JsonObject | undefined, principal = "alice") => ({
  ...inlineJobHost({ signal: new AbortController().signal }),
  principal,
  loadCaller: () => stored,
});

describe("sealing what a task keeps of its caller", () => {
  it("keeps no plain text of the caller, and opens for the same principal", async () => {
    const sealed = await sealCaller({ apiKey: "sk-alice-123" }, "alice", env);
    expect(JSON.stringify(sealed)).not.toContain("sk-alice-123");
    expect(await openCaller(sealed, "alice", env)).toEqual({ ok: true, caller: { apiKey: "sk-alice-123" } });
  });

  it("does not open for another principal's task", async () => {
    const sealed = await sealCaller({ apiKey: "sk-alice-123" }, "alice", env);
    expect(await openCaller(sealed, "bob", env)).toMatchObject({ ok: false });
  });

  it("opens after a rotation with the old key kept in CALLER_KEY_PREVIOUS, and says what to do without it", async () => {
    const sealed = await sealCaller({ apiKey: "k" }, "alice", env);
    const rotated = { CALLER_KEY: key(), CALLER_KEY_PREVIOUS: KEY };
    expect(await openCaller(sealed, "alice", rotated)).toEqual({ ok: true, caller: { apiKey: "k" } });
    const lost = await openCaller(sealed, "alice", { CALLER_KEY: key() });
    expect(lost).toMatchObject({ ok: false, reason: expect.stringContaining("CALLER_KEY_PREVIOUS") });
  });

  it("refuses a CALLER_KEY that is not 32 bytes, naming it", async () => {
    await expect(sealCaller({ a: 1 }, "alice", { CALLER_KEY: btoa("short") })).rejects.toThrow(
      /CALLER_KEY holds 5 bytes, not 32: put a new one/,
    );
  });

  it("fails a run of a task sealed before the key went bad, in words naming the secret and the fix, logged", async () => {
    const sealed = await sealCaller({ apiKey: "k" }, "alice", env);
    const log = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const opened = await openCaller(sealed, "alice", { CALLER_KEY: "not base64!" });
      expect(opened).toEqual({
        ok: false,
        reason:
          "the Worker's secret CALLER_KEY is not base64: put a new one, 32 random bytes in base64, with `openssl rand -base64 32 | npx wrangler secret put CALLER_KEY`",
      });
      expect(log).toHaveBeenCalledWith(expect.stringContaining("CALLER_KEY is not base64"));
      expect(JSON.stringify(log.mock.calls)).not.toContain("not base64!");
    } finally {
      log.mockRestore();
    }
  });
});

describe("job.caller in a run", () => {
  const upstream = defineTool({
    name: "upstream",
    description: "Calls an API as its caller.",
    inputSchema: z.object({}),
    taskSupport: "optional",
    caller: z.object({ apiKey: z.string() }),
    run: async (_input, job) => `called with ${job.caller.apiKey.length} characters of key`,
  });

  it("is the stored caller, parsed by the tool's schema", async () => {
    const host = hostWith(await sealCaller({ apiKey: "sk-alice-123" }, "alice", env));
    const outcome = await runTool(upstream, {}, host, undefined, await runIdentity(host, env));
    expect(outcome).toMatchObject({
      kind: "completed",
      result: { content: [{ text: "called with 12 characters of key" }] },
    });
  });

  it("goes through the adopter's resolveCaller at each run; its refusal is what the tool learns", async () => {
    const host = hostWith(await sealCaller({ grant: "g1" }, "alice", env));
    const resolved = await runIdentity(host, env, (stored) => ({ apiKey: `token-for-${String(stored["grant"])}` }));
    expect(await runTool(upstream, {}, host, undefined, resolved)).toMatchObject({ kind: "completed" });
    const revoked = await runIdentity(host, env, () => {
      throw new Error("the grant g1 was revoked");
    });
    expect(await runTool(upstream, {}, host, undefined, revoked)).toEqual({
      kind: "failed",
      permanent: true,
      message: "This task can no longer act for the caller who started it: the grant g1 was revoked. Start it again.",
    });
  });

  it("fails the task in words when what was kept does not fit the tool's schema", async () => {
    const host = hostWith(await sealCaller({ user: "alice" }, "alice", env));
    const outcome = await runTool(upstream, {}, host, undefined, await runIdentity(host, env));
    expect(outcome).toMatchObject({ kind: "failed", permanent: true, message: expect.stringContaining("apiKey") });
  });

  it("gives job.env the Worker's env", async () => {
    const tool = defineTool({
      name: "env",
      description: "Reads the env.",
      inputSchema: z.object({}),
      taskSupport: "optional",
      run: async (_input, job) => Object.keys(job.env).join(","),
    });
    const host = hostWith(undefined);
    const outcome = await runTool(tool, {}, host, undefined, await runIdentity(host, env));
    expect(outcome).toMatchObject({ kind: "completed", result: { content: [{ text: "CALLER_KEY" }] } });
  });
});
