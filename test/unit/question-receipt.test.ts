// Who answered, measured from the question's first receipt (src/core/model/question-receipt.ts,
// docs/human-in-the-loop.md "Who answered"): a client that first sees a question late and declines on
// sight is the client on its own, whatever time has passed since the asking. Times are passed in.
import { describe, it } from "vitest";
import { answerInputs, waitForInput } from "../../src/core/model/input-wait";
import { beginRun, markDelivered, newTask } from "../../src/core/model/machine";
import { noteReceipt, receivedAt } from "../../src/core/model/question-receipt";
import { PERSON_FLOOR_MS } from "../../src/core/model/questions";
import type { TaskRecord } from "../../src/core";

const T0 = 1_700_000_000_000;
const ASKED = T0 + 20;
const FORM = { type: "object", properties: { confirm: { type: "boolean" } }, required: ["confirm"] };
const ASK = { key: "confirm", message: "Deploy api v2 to production?", requestedSchema: FORM };

function waiting(): TaskRecord {
  const created = newTask(
    {
      taskId: "a".repeat(32),
      principal: "alice",
      tool: "deploy",
      args: {},
      defaultTtlMs: 600_000,
      maxTtlMs: 600_000,
      pollIntervalMs: 1000,
      dispatchGraceMs: 0,
    },
    T0,
  ).record;
  const run = beginRun(markDelivered(created).record, "lease-1", 30_000, T0 + 10).record;
  return waitForInput(run, "lease-1", [ASK], ASKED).record;
}

const automaticOf = (record: TaskRecord, action: string, at: number): boolean | undefined => {
  const result = answerInputs(record, { confirm: { action } }, at);
  return result.ok ? (result.accepted[0]?.answer.automatic ?? false) : undefined;
};

describe("a question's first receipt", () => {
  it("is noted once: a later read returns the same record, so nothing is written again", ({ expect }) => {
    const seen = noteReceipt(waiting(), ASKED + 4433);
    expect(seen.inputs?.["confirm"]?.seenAt).toBe(ASKED + 4433);
    expect(noteReceipt(seen, ASKED + 9000)).toBe(seen);
  });

  it("is not noted for a task that waits on nothing", ({ expect }) => {
    const answered = answerInputs(waiting(), { confirm: { action: "accept", content: { confirm: true } } }, ASKED + 5);
    const record = answered.ok ? answered.transition.record : waiting();
    expect(noteReceipt(record, ASKED + 10)).toBe(record);
  });

  it("falls back to the asking when no reader received the question", ({ expect }) => {
    const asked = waiting().inputs?.["confirm"];
    expect(asked && receivedAt(asked)).toBe(ASKED);
  });
});

describe("who answered, from the first receipt", () => {
  it("a client that first saw the question 4,433 ms after it was asked and declined at once answered on its own", ({
    expect,
  }) => {
    const seen = noteReceipt(waiting(), ASKED + 4433);
    expect(automaticOf(seen, "decline", ASKED + 4433 + 40)).toBe(true);
    expect(automaticOf(seen, "cancel", ASKED + 4433 + PERSON_FLOOR_MS - 1)).toBe(true);
  });

  it("an answer a floor after the first receipt is a person's", ({ expect }) => {
    const seen = noteReceipt(waiting(), ASKED + 4433);
    expect(automaticOf(seen, "decline", ASKED + 4433 + PERSON_FLOOR_MS)).toBe(false);
  });

  it("a later reader's sight of it does not restart the floor", ({ expect }) => {
    const first = noteReceipt(waiting(), ASKED + 10);
    const again = noteReceipt(first, ASKED + 60_000);
    expect(automaticOf(again, "decline", ASKED + 60_100)).toBe(false);
  });
});
