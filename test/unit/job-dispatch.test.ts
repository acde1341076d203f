import { afterEach, beforeEach, describe, it, vi } from "vitest";
import { JobDispatch, STARTED_WINDOW_MS, type JobQueue } from "../../src/core/client/job-dispatch";
import type { JobMessage } from "../../src/core/client/job-message";

/** A queue standing in for JOBS: records every sendBatch; `failFirst` makes the first one throw. */
function queue(failFirst = false) {
  const batches: JobMessage[][] = [];
  let calls = 0;
  const q: JobQueue = {
    sendBatch: async (messages) => {
      calls += 1;
      if (failFirst && calls === 1) throw new Error("queue unavailable");
      batches.push([...messages]);
    },
  };
  return { batches, q };
}

const message = (i: number): JobMessage => ({
  v: 1,
  principal: "p",
  taskId: i.toString(16).padStart(32, "0"),
  started: true,
});
/** A message that hands its job over (DISPATCH_GRACE_MS > 0): its object has not started it. */
const handOver = (i: number): JobMessage => ({ v: 1, principal: "p", taskId: i.toString(16).padStart(32, "0") });
/** Moves the fake clock past every timer due, then takes `sent`'s result. */
const settled = async <T>(sent: Promise<T>): Promise<T> => {
  await vi.runAllTimersAsync();
  return sent;
};
const lastDigits = (batches: JobMessage[][]) => batches.map((b) => b.map((m) => m.taskId.slice(-1)));

// On vitest's fake clock: a window's length is checked to the millisecond, not by waiting it out.
describe("JobDispatch", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("sends the messages of one moment in one batch, and the next moment's in another", async ({ expect }) => {
    const { batches, q } = queue();
    const dispatch = new JobDispatch();
    const first = [0, 1, 2].map((i) => dispatch.send(q, message(i)));
    await settled(Promise.all(first));
    await settled(dispatch.send(q, message(3)));
    expect(batches.map((b) => b.map((m) => m.taskId.slice(-1)))).toEqual([["0", "1", "2"], ["3"]]);
  });

  it("splits a moment of more than 100 messages into batches of at most 100, in order", async ({ expect }) => {
    const { batches, q } = queue();
    const dispatch = new JobDispatch();
    await settled(Promise.all(Array.from({ length: 250 }, (_, i) => dispatch.send(q, message(i)))));
    expect(batches.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(batches.flat().map((m) => m.taskId)).toEqual(Array.from({ length: 250 }, (_, i) => message(i).taskId));
  });

  it("logs a failed batch with its task ids and resolves (the tasks' alarms start them), then sends the next batch", async ({
    expect,
  }) => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const { batches, q } = queue(true);
    const dispatch = new JobDispatch();
    await expect(
      settled(Promise.all(Array.from({ length: 101 }, (_, i) => dispatch.send(q, message(i))))),
    ).resolves.toBeDefined();
    expect(errors).toHaveBeenCalledOnce();
    expect(String(errors.mock.calls[0]?.[0])).toContain("alarms start them");
    expect(String(errors.mock.calls[0]?.[1])).toContain(message(99).taskId);
    expect(batches.map((b) => b.length)).toEqual([1]);
  });

  it("lets started jobs' messages wait STARTED_WINDOW_MS for others: a burst's creations share a send", async ({
    expect,
  }) => {
    const { batches, q } = queue();
    const dispatch = new JobDispatch();
    const started = Date.now();
    const sent = [dispatch.send(q, message(0))];
    await vi.advanceTimersByTimeAsync(STARTED_WINDOW_MS / 5);
    sent.push(dispatch.send(q, message(1)));
    await vi.advanceTimersByTimeAsync(STARTED_WINDOW_MS / 5);
    sent.push(dispatch.send(q, message(2)));
    // Nothing leaves before the first message's window is over, and everything then.
    await vi.advanceTimersByTimeAsync(STARTED_WINDOW_MS - (2 * STARTED_WINDOW_MS) / 5 - 1);
    expect(batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(lastDigits(batches)).toEqual([["0", "1", "2"]]);
    expect(Date.now() - started).toBe(STARTED_WINDOW_MS);
    await Promise.all(sent);
  });

  // No request awaits another's I/O: on Workers its continuation would run in that request's context.
  it("gives a creation that joins a batch another scheduled nothing of that one's to await", async ({ expect }) => {
    const { batches, q } = queue();
    const dispatch = new JobDispatch();
    const owner = dispatch.send(q, message(0));
    let ownerSent = false;
    void owner.then(() => (ownerSent = true)); // observed only: awaited below
    // The joiner's promise is settled before any timer runs or any send is made: it is not the owner's.
    const joined = dispatch.send(q, message(1));
    // (The joiner's continuation is queued first, so it wins the race only if its promise is already settled.)
    const settledAtOnce = joined.then(() => "joiner resolved");
    const pending = new Promise((r) => queueMicrotask(() => r("pending")));
    await expect(Promise.race([settledAtOnce, pending])).resolves.toBe("joiner resolved");
    expect(batches).toEqual([]);
    expect(ownerSent).toBe(false);
    // The owner's own send carries both messages, and only the owner waited for it.
    await settled(owner);
    expect(lastDigits(batches)).toEqual([["0", "1"]]);
  });

  it("sends a hand-over at once, taking along the started ones waiting", async ({ expect }) => {
    const { batches, q } = queue();
    const dispatch = new JobDispatch();
    const waiting = dispatch.send(q, message(0));
    await vi.advanceTimersByTimeAsync(5);
    const handedOver = dispatch.send(q, handOver(1));
    // Sent on the next timer turn, no time passing: the started one goes along.
    await vi.advanceTimersByTimeAsync(0);
    expect(lastDigits(batches)).toEqual([["0", "1"]]);
    await handedOver;
    await settled(waiting);
    await settled(dispatch.send(q, handOver(2)));
    expect(lastDigits(batches)).toEqual([["0", "1"], ["2"]]);
  });
});
