import { describe, it } from "vitest";
import {
  claimItem,
  completeItem,
  failItem,
  giveUpItem,
  newItem,
  redeliveryMs,
  renewItem,
  resendItem,
  type FanOutItem,
  type ItemPolicy,
} from "../../src/core/fan-out/items";

const policy: ItemPolicy = { leaseMs: 30_000, maxAttempts: 3, retryBaseSeconds: 2 };
const T = 1_000_000;

const running = (at = T): FanOutItem => claimItem(resendItem(newItem(0), policy, at).item, policy, at).item;

describe("a fanned-out item", () => {
  it("is sent at once, and again only after nothing was heard of it for a lease, doubling each time", ({ expect }) => {
    const sent = resendItem(newItem(4), policy, T);
    expect(sent).toMatchObject({ send: true, item: { state: "pending", sends: 1, dueAt: T + 30_000 } });
    expect(resendItem(sent.item, policy, T + 29_999).send).toBe(false);
    const again = resendItem(sent.item, policy, T + 30_000);
    expect(again).toMatchObject({ send: true, item: { sends: 2, dueAt: T + 30_000 + 60_000 } });
    expect(redeliveryMs(20, 30_000)).toBe(3_600_000);
  });

  it("runs for the first claim, and is busy for a duplicate while its lease holds", ({ expect }) => {
    const item = running();
    expect(item).toMatchObject({ state: "running", claims: 1, dueAt: T + 30_000 });
    const duplicate = claimItem(item, policy, T + 1000);
    expect(duplicate.outcome).toBe("busy");
    expect(duplicate.item).toBe(item);
  });

  it("is taken over once its consumer's lease ran out, counting a lost run; lost too often, it fails", ({ expect }) => {
    let item = running();
    const takeover = claimItem(item, policy, T + 30_000);
    expect(takeover).toMatchObject({ outcome: "run", item: { claims: 2, lost: 1 } });
    item = claimItem(takeover.item, policy, T + 60_000).item;
    expect(item.lost).toBe(2);
    const third = claimItem(item, policy, T + 90_000 + 1);
    expect(third.outcome).toBe("lost");
    expect(third.item).toMatchObject({
      state: "failed",
      lost: 3,
      error: expect.stringMatching(/stopped responding 3 times/),
    });
  });

  it("counts a dead consumer found by the alarm as a lost run too, and sends the item again", ({ expect }) => {
    const resent = resendItem(running(), policy, T + 30_000);
    expect(resent).toMatchObject({ send: true, item: { state: "pending", lost: 1, sends: 2 } });
    // The next claim of the re-sent message is an ordinary one: the loss is not counted twice.
    expect(claimItem(resent.item, policy, T + 31_000).item.lost).toBe(1);
  });

  it("extends a running lease only once a third of it is used, so a beat a second writes every ten", ({ expect }) => {
    const item = running();
    expect(renewItem(item, policy, T + 9_000)).toBe(item);
    expect(renewItem(item, policy, T + 10_001).dueAt).toBe(T + 40_001);
    expect(renewItem(newItem(1), policy, T)).toEqual(newItem(1));
  });

  it("keeps the first result and ignores a later one", ({ expect }) => {
    const done = completeItem(running());
    expect(done.state).toBe("done");
    expect(completeItem(done)).toBe(done);
    expect(failItem(done, "late failure", false, policy, T).outcome).toEqual({ kind: "ignored" });
  });

  it("is retried with exponential backoff until its attempts are used up", ({ expect }) => {
    const first = failItem(running(), "boom", false, policy, T);
    expect(first.outcome).toEqual({ kind: "retry", delaySeconds: 2 });
    // Due back after the delay plus a lease: not presumed lost while the queue holds it back.
    expect(first.item).toMatchObject({ state: "pending", failures: 1, dueAt: T + 2000 + 30_000, error: "boom" });
    const second = failItem(first.item, "boom", false, policy, T);
    expect(second.outcome).toEqual({ kind: "retry", delaySeconds: 4 });
    const third = failItem(second.item, "boom", false, policy, T);
    expect(third.outcome).toEqual({ kind: "final" });
    expect(third.item).toMatchObject({ state: "failed", error: "boom (gave up after 3 attempts)" });
  });

  it("fails at once on a permanent error", ({ expect }) => {
    const failed = failItem(running(), "bad input", true, policy, T);
    expect(failed).toMatchObject({
      outcome: { kind: "final" },
      item: { state: "failed", failures: 1, error: "bad input" },
    });
  });

  it("fails when the queue gives up on it, keeping the last error, unless it is already done", ({ expect }) => {
    const retried = failItem(running(), "timeout", false, policy, T).item;
    expect(giveUpItem(retried, "the queue gave up")).toMatchObject({
      state: "failed",
      error: "the queue gave up; last error: timeout",
    });
    const done = completeItem(running());
    expect(giveUpItem(done, "the queue gave up")).toBe(done);
  });

  it("is never sent again once finished", ({ expect }) => {
    const done = completeItem(running());
    expect(resendItem(done, policy, T + 10 * 3_600_000)).toEqual({ item: done, send: false });
    expect(claimItem(done, policy, T).outcome).toBe("finished");
  });
});
