// The plain-call policy both eras follow (src/protocol/call-policy.ts): a call stops only a task it
// created, and does not wait on a task that waits for a person it cannot ask.
import { describe, it } from "vitest";
import { planPlainCall } from "../../src/protocol/call-policy";

describe("planPlainCall", () => {
  it("cancels on leave only a task this call created", ({ expect }) => {
    expect(planPlainCall("working", { created: true, canAsk: false }).cancelOnLeave).toBe(true);
    expect(planPlainCall("working", { created: false, canAsk: false }).cancelOnLeave).toBe(false);
    expect(planPlainCall("working", { created: false, canAsk: true }).cancelOnLeave).toBe(false);
  });

  it("answers at once for a task waiting for a person the call cannot ask", ({ expect }) => {
    expect(planPlainCall("input_required", { created: false, canAsk: false }).wait).toBe(false);
    // A call whose stream carries the question to its client asks it, and waits for the answer.
    expect(planPlainCall("input_required", { created: false, canAsk: true })).toMatchObject({
      wait: true,
      stopOnQuestion: false,
    });
  });

  it("waits for a working task, stopping at a question only when it cannot ask", ({ expect }) => {
    expect(planPlainCall("working", { created: true, canAsk: false })).toMatchObject({
      wait: true,
      stopOnQuestion: true,
    });
    expect(planPlainCall("working", { created: true, canAsk: true })).toMatchObject({
      wait: true,
      stopOnQuestion: false,
    });
  });

  it("does not wait for a task that has ended", ({ expect }) => {
    for (const status of ["completed", "failed", "cancelled"] as const)
      expect(planPlainCall(status, { created: false, canAsk: true }).wait).toBe(false);
  });
});
