// job.callback over a memory host standing in for the task's callbacks: the URL opened once per
// name, a body kept whenever it arrives, the wait ending the run until a POST or the timeout; and
// how the task judges a POST to a callback (model/callbacks.ts).
import { describe, it, vi } from "vitest";
import type { CallbackPort, JobHost } from "../../src/core";
import { judgeCallback, sameToken } from "../../src/core/model/callbacks";
import { createJobContext } from "../../src/jobs/job-context";
import { runTool } from "../../src/jobs/runner";
import { memoryHost, MemoryTables } from "./memory-host";

/** The task's callbacks across runs: opened once by name, a body stored once. */
class Callbacks implements CallbackPort {
  readonly opened = new Map<string, { token: string; expiresAt: number; signed: boolean }>();
  readonly bodies = new Map<string, unknown>();
  open(name: string, expiresAt: number, signed: boolean) {
    const fresh = !this.opened.has(name);
    if (fresh) this.opened.set(name, { token: crypto.randomUUID(), expiresAt, signed });
    const row = this.opened.get(name) ?? { token: "", expiresAt, signed };
    const url = `https://w.example/callbacks/o/${encodeURIComponent(name)}/${row.token}`;
    return { url, expiresAt: row.expiresAt, fresh, signed: row.signed, objectId: "o", token: row.token };
  }
  received(name: string) {
    return this.bodies.has(name) ? { body: this.bodies.get(name) } : undefined;
  }
}

const hostWith = (callbacks: Callbacks | undefined, tables = new MemoryTables()): JobHost =>
  memoryHost(tables, callbacks ? { callbacks } : {});

/** A tool that opens a callback, hands out its URL, waits and says what came. */
const waiter = (urls: string[]) => ({
  async run(_input: unknown, job: ReturnType<typeof createJobContext>) {
    const cb = await job.callback("done", { timeout: "10 minutes" });
    urls.push(cb.url);
    const got = await cb.wait();
    return got.status === "received" ? `received ${JSON.stringify(got.body)}` : "timed out";
  },
});

describe("job.callback", () => {
  it("ends the run to wait until the callback's expiry, then wakes with the POSTed body; the URL is the same on the replay", async ({
    expect,
  }) => {
    vi.useFakeTimers();
    try {
      const callbacks = new Callbacks();
      const tables = new MemoryTables();
      const urls: string[] = [];
      const first = await runTool(waiter(urls), {}, hostWith(callbacks, tables));
      expect(first).toMatchObject({
        kind: "yielded",
        wakeAt: Date.now() + 600_000,
        reason: 'waiting for callback "done"',
      });
      callbacks.bodies.set("done", { outputUrl: "https://out.example/1" });
      const second = await runTool(waiter(urls), {}, hostWith(callbacks, tables));
      expect(second).toMatchObject({
        kind: "completed",
        result: { content: [{ text: 'received {"outputUrl":"https://out.example/1"}' }] },
      });
      expect(new Set(urls).size).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps a body that arrives before the job waits: the wait returns it without ending the run", async ({
    expect,
  }) => {
    const callbacks = new Callbacks();
    callbacks.open("done", Date.now() + 60_000, false);
    callbacks.bodies.set("done", 42);
    expect(await runTool(waiter([]), {}, hostWith(callbacks))).toMatchObject({
      kind: "completed",
      result: { content: [{ text: "received 42" }] },
    });
  });

  it("wakes timed out once its expiry has passed with nothing received", async ({ expect }) => {
    vi.useFakeTimers();
    try {
      const callbacks = new Callbacks();
      await runTool(waiter([]), {}, hostWith(callbacks));
      vi.setSystemTime(Date.now() + 600_000);
      expect(await runTool(waiter([]), {}, hostWith(callbacks))).toMatchObject({
        kind: "completed",
        result: { content: [{ text: "timed out" }] },
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it("says what to set where a callback cannot be had, and refuses bad options and a wait inside a step with options", async ({
    expect,
  }) => {
    const plain = createJobContext(hostWith(undefined), {});
    await expect(plain.callback("done", { timeout: 60 })).rejects.toThrow(/set PUBLIC_URL/);
    const job = createJobContext(hostWith(new Callbacks()), {});
    await expect(job.callback("", { timeout: 60 })).rejects.toThrow(/a name of 1 to 100 letters, digits/);
    await expect(job.callback("a/b%20", { timeout: 60 })).rejects.toThrow(/got "a\/b%20"/);
    // @ts-expect-error: a duration in words the parser does not know
    await expect(job.callback("x", { timeout: "soon" })).rejects.toThrow(/timeout must be a number of seconds/);
    await expect(job.callback("x", { timeout: 0 })).rejects.toThrow(/more than 0 and at most 30 days/);
    await expect(job.step("s", { retries: { limit: 2 } }, () => job.callback("y", { timeout: 60 }))).rejects.toThrow(
      /job\.callback was called inside job\.step\("s"\), where each attempt of a step with options/,
    );
  });
});

describe("a POST to a callback, as the task judges it", () => {
  const row = { token: "a".repeat(64), expiresAt: 1000 };

  it("takes the right token before expiry, once", ({ expect }) => {
    expect(judgeCallback(row, { token: "a".repeat(64), signed: false }, false, 999)).toBeUndefined();
    expect(judgeCallback(row, { token: "a".repeat(64), signed: false }, true, 999)).toBe("used");
    expect(judgeCallback(row, { token: "a".repeat(64), signed: false }, false, 1000)).toBe("expired");
  });

  it("takes the task's owner without a token, with the same rules of use and expiry", ({ expect }) => {
    expect(judgeCallback(row, { owner: true }, false, 999)).toBeUndefined();
    expect(judgeCallback(row, { owner: true }, true, 999)).toBe("used");
    expect(judgeCallback(row, { owner: true }, false, 1000)).toBe("expired");
    expect(judgeCallback(undefined, { owner: true }, false, 0)).toBe("unknown");
  });

  it("takes a signed callback's token only from its signed URL, checked by the Worker", ({ expect }) => {
    const signed = { ...row, signed: true };
    expect(judgeCallback(signed, { token: "a".repeat(64), signed: true }, false, 999)).toBeUndefined();
    expect(judgeCallback(signed, { token: "a".repeat(64), signed: false }, false, 999)).toBe("unknown");
    // A callback opened unsigned (no key then, or the release before signatures) takes either form.
    expect(judgeCallback(row, { token: "a".repeat(64), signed: true }, false, 999)).toBeUndefined();
  });

  it("answers a wrong token as it answers an unknown callback", ({ expect }) => {
    expect(judgeCallback(row, { token: `${"a".repeat(63)}b`, signed: false }, false, 0)).toBe("unknown");
    expect(judgeCallback(row, { token: "a", signed: false }, true, 0)).toBe("unknown");
    expect(judgeCallback(undefined, { token: "a".repeat(64), signed: false }, false, 0)).toBe("unknown");
    expect(sameToken("abc", "abc")).toBe(true);
    expect(sameToken("abc", "abd")).toBe(false);
  });
});
