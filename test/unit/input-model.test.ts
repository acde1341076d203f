// The human-in-the-loop transitions of the state machine (src/core/model/input-wait.ts): a run that asks
// ends and the task waits with nothing running; answers are checked, stored once, and wake the task.
import { describe, it } from "vitest";
import { answerInputs, waitForInput } from "../../src/core/model/input-wait";
import {
  beginRun,
  cancelTask,
  endRun,
  isDueToRun,
  markDelivered,
  newTask,
  nextAlarmAt,
} from "../../src/core/model/machine";
import { pendingInputs, type TaskRecord } from "../../src/core";
import { PERSON_FLOOR_MS } from "../../src/core/model/questions";

const T0 = 1_700_000_000_000;
const policy = { maxAttempts: 3, baseSeconds: 2 };
const FORM = {
  type: "object",
  properties: { confirm: { type: "boolean" }, note: { type: "string", maxLength: 5 } },
  required: ["confirm"],
};
const ASK = { key: "confirm", message: "Deploy api v2 to production?", requestedSchema: FORM };

function running(lease = "lease-1", at = T0 + 10): TaskRecord {
  const created = newTask(
    {
      taskId: "a".repeat(32),
      principal: "alice",
      tool: "deploy",
      args: {},
      defaultTtlMs: 60_000,
      maxTtlMs: 120_000,
      pollIntervalMs: 1000,
      dispatchGraceMs: 0,
    },
    T0,
  ).record;
  return beginRun(markDelivered(created).record, lease, 30_000, at).record;
}

const waiting = (): TaskRecord => waitForInput(running(), "lease-1", [ASK], T0 + 20).record;

describe("a run that asks", () => {
  it("ends with the task input_required, the question as its status message, nothing running", ({ expect }) => {
    const { record, events } = endRun(running(), "lease-1", { kind: "input", questions: [ASK] }, policy, T0 + 20);
    expect(record.status).toBe("input_required");
    expect(record.statusMessage).toBe("Deploy api v2 to production?");
    expect(record.run).toMatchObject({ phase: "waiting_input", leaseId: undefined, leaseUntil: undefined });
    expect(events.map((e) => e.type)).toEqual(["question", "status"]);
    expect(events[0]?.data).toEqual({ key: "confirm", message: ASK.message, requestedSchema: FORM });
    expect(pendingInputs(record)).toEqual({ confirm: { message: ASK.message, requestedSchema: FORM } });
  });

  it("is not due to run while it waits; its alarm is only its expiry", ({ expect }) => {
    const record = waiting();
    expect(isDueToRun(record, T0 + 59_000)).toBe(false);
    expect(beginRun(record, "lease-2", 30_000, T0 + 59_000).record).toBe(record);
    expect(nextAlarmAt(record)).toBe(record.expiresAt);
  });

  it("does not ask a key twice: a key already asked adds no question", ({ expect }) => {
    const record = waiting();
    const again = beginRun(
      { ...record, run: { ...record.run, phase: "sleeping", wakeAt: T0 } },
      "lease-2",
      30_000,
      T0 + 30,
    ).record;
    const asked = waitForInput(again, "lease-2", [ASK], T0 + 40);
    expect(asked.events.map((e) => e.type)).toEqual(["status"]);
    expect(Object.keys(asked.record.inputs ?? {})).toEqual(["confirm"]);
  });

  it("ignores the outcome of a run that lost its lease", ({ expect }) => {
    const live = running();
    expect(waitForInput(live, "stale", [ASK], T0 + 20).record).toBe(live);
  });

  it("says how many more questions wait when it asks several at once", ({ expect }) => {
    const { record } = waitForInput(running(), "lease-1", [ASK, { ...ASK, key: "second", message: "And?" }], T0 + 20);
    expect(record.statusMessage).toBe("Deploy api v2 to production? (and 1 more question)");
  });
});

describe("answers", () => {
  it("take a valid answer, log it, and make the task due at once", ({ expect }) => {
    const result = answerInputs(
      waiting(),
      { confirm: { action: "accept", content: { confirm: true, note: "ok" } } },
      T0 + 100,
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.accepted).toEqual([
      { key: "confirm", answer: { action: "accept", content: { confirm: true, note: "ok" } } },
    ]);
    const { record, events } = result.transition;
    expect(record.status).toBe("working");
    expect(record.run).toMatchObject({ phase: "sleeping", wakeAt: T0 + 100 });
    expect(isDueToRun(record, T0 + 100)).toBe(true);
    expect(events.map((e) => e.type)).toEqual(["answer", "status"]);
    expect(events[0]?.data).toEqual({ key: "confirm", action: "accept" });
    expect(pendingInputs(record)).toEqual({});
  });

  it("reject an answer that breaks the form, naming the field, and keep the task waiting", ({ expect }) => {
    const record = waiting();
    expect(
      answerInputs(record, { confirm: { action: "accept", content: { confirm: "yes" } } }, T0 + 100),
    ).toMatchObject({ ok: false, reason: "invalid", key: "confirm", message: expect.stringContaining('"confirm"') });
    expect(answerInputs(record, { confirm: { action: "accept", content: {} } }, T0 + 100)).toMatchObject({
      ok: false,
      message: 'field "confirm" is required',
    });
    expect(
      answerInputs(record, { confirm: { action: "accept", content: { confirm: true, note: "too long" } } }, T0 + 100),
    ).toMatchObject({ ok: false, message: expect.stringContaining('"note"') });
    expect(answerInputs(record, { confirm: { action: "maybe" } }, T0 + 100)).toMatchObject({
      ok: false,
      reason: "invalid",
    });
    expect(answerInputs(record, { confirm: "yes" }, T0 + 100)).toMatchObject({ ok: false, reason: "invalid" });
  });

  it("take nothing when one of several answers is invalid", ({ expect }) => {
    const record = waitForInput(running(), "lease-1", [ASK, { ...ASK, key: "second" }], T0 + 20).record;
    const result = answerInputs(
      record,
      { confirm: { action: "decline" }, second: { action: "accept", content: {} } },
      T0 + 100,
    );
    expect(result).toMatchObject({ ok: false, reason: "invalid", key: "second" });
  });

  it("ignore keys that are unknown or already answered", ({ expect }) => {
    const first = answerInputs(waiting(), { confirm: { action: "decline" }, nope: { action: "accept" } }, T0 + 100);
    if (!first.ok) throw new Error("expected ok");
    expect(first.ignored).toEqual(["nope"]);
    const again = answerInputs(
      first.transition.record,
      { confirm: { action: "accept", content: { confirm: true } } },
      T0 + 200,
    );
    expect(again).toMatchObject({ ok: true, accepted: [], ignored: ["confirm"] });
    if (again.ok) expect(again.transition.record).toBe(first.transition.record);
  });

  it("keep a declined or cancelled answer's content out of what the job sees", ({ expect }) => {
    const result = answerInputs(waiting(), { confirm: { action: "decline", content: { confirm: true } } }, T0 + 100);
    expect(result).toMatchObject({ ok: true, accepted: [{ key: "confirm", answer: { action: "decline" } }] });
  });

  it("pass on only the asked fields of an accepted answer", ({ expect }) => {
    const result = answerInputs(
      waiting(),
      { confirm: { action: "accept", content: { confirm: true, extra: 1 } } },
      T0 + 100,
    );
    expect(result).toMatchObject({ ok: true, accepted: [{ answer: { content: { confirm: true } } }] });
  });

  it("leave the task waiting until its last question is answered", ({ expect }) => {
    const record = waitForInput(
      running(),
      "lease-1",
      [ASK, { ...ASK, key: "second", message: "And?" }],
      T0 + 20,
    ).record;
    const partial = answerInputs(record, { confirm: { action: "decline" } }, T0 + 100);
    if (!partial.ok) throw new Error("expected ok");
    expect(partial.transition.record.status).toBe("input_required");
    expect(partial.transition.record.statusMessage).toBe("And?");
    expect(partial.transition.record.run.phase).toBe("waiting_input");
  });

  it("get a clear refusal once the task has ended", ({ expect }) => {
    const cancelled = cancelTask(waiting(), "stop", T0 + 50);
    if (!cancelled.ok) throw new Error("expected cancel");
    expect(cancelled.transition.record.status).toBe("cancelled");
    expect(pendingInputs(cancelled.transition.record)).toEqual({});
    expect(answerInputs(cancelled.transition.record, { confirm: { action: "decline" } }, T0 + 60)).toEqual({
      ok: false,
      reason: "terminal",
    });
  });
});

describe("who answered (a person, or the client on its own)", () => {
  // waiting() asked at T0 + 20: the floor is measured from there, on the clock the test passes in.
  const ASKED = T0 + 20;
  const answerOf = (result: ReturnType<typeof answerInputs>) => (result.ok ? result.accepted[0]?.answer : undefined);

  it("marks a decline or cancel that comes sooner than a person could read the question as the client's own", ({
    expect,
  }) => {
    expect(answerOf(answerInputs(waiting(), { confirm: { action: "decline" } }, ASKED + PERSON_FLOOR_MS - 1))).toEqual({
      action: "decline",
      automatic: true,
    });
    expect(answerOf(answerInputs(waiting(), { confirm: { action: "cancel" } }, ASKED))).toEqual({
      action: "cancel",
      automatic: true,
    });
  });

  it("takes a decline or cancel at or after the floor as a person's", ({ expect }) => {
    expect(answerOf(answerInputs(waiting(), { confirm: { action: "decline" } }, ASKED + PERSON_FLOOR_MS))).toEqual({
      action: "decline",
    });
    expect(answerOf(answerInputs(waiting(), { confirm: { action: "cancel" } }, ASKED + 86_400_000))).toEqual({
      action: "cancel",
    });
  });

  it("never marks an accept: its content passed the form", ({ expect }) => {
    expect(
      answerOf(answerInputs(waiting(), { confirm: { action: "accept", content: { confirm: false } } }, ASKED)),
    ).toEqual({ action: "accept", content: { confirm: false } });
  });

  it("takes the floor as a parameter, and never a client's own claim", ({ expect }) => {
    expect(answerOf(answerInputs(waiting(), { confirm: { action: "decline" } }, ASKED + 50, 10))).toEqual({
      action: "decline",
    });
    expect(
      answerOf(answerInputs(waiting(), { confirm: { action: "decline", automatic: true } }, ASKED + PERSON_FLOOR_MS)),
    ).toEqual({ action: "decline" });
  });

  it("measures each question from when it was asked", ({ expect }) => {
    const two = waitForInput(running(), "lease-1", [ASK], ASKED).record;
    const later = {
      ...two,
      inputs: { ...two.inputs, second: { message: "And?", requestedSchema: FORM, askedAt: ASKED + 5000 } },
    };
    const result = answerInputs(later, { confirm: { action: "decline" }, second: { action: "decline" } }, ASKED + 5100);
    expect(result.ok && result.accepted.map(({ key, answer }) => [key, answer.automatic ?? false])).toEqual([
      ["confirm", false],
      ["second", true],
    ]);
  });
});
