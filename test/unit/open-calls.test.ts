// The session's open calls (src/sessions/open-calls.ts): an entry lives as long as its call, so a
// cancellation naming a request id that a later client reused never reaches a dead call's task.
import { describe, it } from "vitest";
import { ANSWER_GRACE_MS, OpenCalls, type OpenCallStorage } from "../../src/sessions/open-calls";

function calls(start = 1_000_000) {
  let now = start;
  const stored = new Map<string, unknown>();
  const storage: OpenCallStorage = {
    get: async (key) => stored.get(key),
    put: async (key, value) => void stored.set(key, value),
    delete: async (key) => stored.delete(key),
  };
  return { open: new OpenCalls(storage, () => now), stored, advance: (ms: number) => (now += ms) };
}

describe("OpenCalls", () => {
  it("gives a live call's task to the cancellation naming it, once", async ({ expect }) => {
    const { open } = calls();
    await open.open("r1", "task-a", 10_000);
    expect(await open.take("r1")).toBe("task-a");
    expect(await open.take("r1")).toBeUndefined();
  });

  it("forgets a call once it answers, and only its own entry", async ({ expect }) => {
    const { open } = calls();
    await open.open("r1", "task-a", 10_000);
    await open.close("r1", "task-other");
    await open.open("r2", "task-b", 10_000);
    await open.close("r2", "task-b");
    expect([await open.take("r1"), await open.take("r2")]).toEqual(["task-a", undefined]);
  });

  it("ignores an entry its call left past its deadline (the isolate died), and drops it", async ({ expect }) => {
    const { open, stored, advance } = calls();
    await open.open("r1", "task-a", 10_000);
    advance(10_000 + ANSWER_GRACE_MS - 1);
    await open.open("r2", "task-b", 10_000);
    expect(await open.take("r2")).toBe("task-b"); // still within its call's life
    advance(1);
    expect(await open.take("r1")).toBeUndefined();
    expect(stored.size).toBe(0);
  });

  it("lets a new call with the same request id replace what an earlier one left", async ({ expect }) => {
    const { open } = calls();
    await open.open("r1", "task-old", 10_000);
    await open.open("r1", "task-new", 10_000);
    expect(await open.take("r1")).toBe("task-new");
  });

  it("treats an entry of the release before (a bare task id, no deadline) as a dead call's", async ({ expect }) => {
    const { open, stored } = calls();
    stored.set("open-call:r1", "task-a");
    expect(await open.take("r1")).toBeUndefined();
    stored.set("open-call:r2", "task-b");
    await open.close("r2", "task-b");
    expect(stored.size).toBe(0);
  });
});
