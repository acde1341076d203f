// A task's caller across an hour's wait for an answer, in the TaskObject, on vitest's fake clock (the
// pool runs the objects in the test's isolate, so they read the same Date): a `deploy` task created
// with a sealed caller asks its question; the clock moves an hour; the answer wakes it (its alarm run
// here, as the clock it was set on is not the runtime's); it completes, and what it kept of its
// caller still opens for its principal. The tool side (the key on the step after the answer):
// test/unit/caller-an-hour-later.test.ts.
import { runDurableObjectAlarm } from "cloudflare:test";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CALLER_STATE } from "../../src/core/model/caller-state";
import { openCaller, sealCaller } from "../../src/jobs/caller-seal";
import { until } from "../until";
import { freshTask, storedRecord } from "./support";

const HOUR = 3600_000;
const KEY = { CALLER_KEY: btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(32)))) };

afterEach(() => {
  vi.useRealTimers();
});

describe("a question answered an hour later (fake clock, TaskObject)", () => {
  it("resumes the task, and what it kept of its caller still opens for its principal", async () => {
    const { stub, input, principal } = freshTask("deploy", { service: "api", version: "v2" });
    const sealed = await sealCaller({ apiKey: "up-alice" }, principal, KEY);
    await stub.create(input, { state: [{ ...CALLER_STATE, value: sealed }] });
    await stub.deliver();
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("input_required"), until(100));
    const asked = await storedRecord(stub);

    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + HOUR);
    const answered = await stub.answer({ confirm: { action: "accept", content: { confirm: true } } });
    expect(answered).toMatchObject({ ok: true, accepted: ["confirm"] });
    // Due "now" on the fake clock, an hour ahead of the runtime's: the test runs the alarm.
    await vi.waitFor(async () => {
      await runDurableObjectAlarm(stub);
      expect((await stub.get())?.task.status).toBe("completed");
    }, until(100));

    const done = await storedRecord(stub);
    // The object stamped the answer and the end on the moved clock: an hour after the question.
    expect((done?.lastUpdatedAt ?? 0) - (asked?.lastUpdatedAt ?? 0)).toBeGreaterThanOrEqual(HOUR);
    expect(done?.expiresAt).toBe(asked?.expiresAt);
    const kept = await stub.lookupState(CALLER_STATE.kind, CALLER_STATE.key);
    expect(await openCaller(kept, principal, KEY)).toEqual({ ok: true, caller: { apiKey: "up-alice" } });
  });
});
