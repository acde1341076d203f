// An adopter's Worker binds no SESSIONS (docs/adopting.md): the TaskObject's 2025 session observer
// then does nothing, and a 2025 handler that would reach a session says which binding is missing
// instead of failing with a TypeError (src/mcp-2025-11-25/session.ts, session-observer.ts).
import { describe, it } from "vitest";
import { newTask } from "../../src/core/model/machine";
import type { AdapterStateWriter } from "../../src/core/object/adapter-state";
import { sessionStub } from "../../src/mcp-2025-11-25/session";
import { sessionObserver } from "../../src/mcp-2025-11-25/session-observer";
import { SESSION_FEED_STATE } from "../../src/mcp-2025-11-25/task-streams";

const { record, events } = newTask(
  {
    taskId: "a".repeat(32),
    principal: "p",
    tool: "countdown",
    args: { seconds: 1 },
    defaultTtlMs: 3_600_000,
    maxTtlMs: 3_600_000,
    pollIntervalMs: 1000,
    dispatchGraceMs: 0,
  },
  1_000_000,
);

/** A task one session follows, as the template's 2025 adapter leaves it. */
const followed: AdapterStateWriter = {
  list: (kind) =>
    kind === SESSION_FEED_STATE ? [{ kind, key: "s1", value: { tasks: true }, spans: [[0, null]] }] : [],
  lookup: () => undefined,
  attach: () => "1",
};

describe("a Worker without the SESSIONS binding", () => {
  it("has the session observer leave a followed task's events alone", async ({ expect }) => {
    const appended = events.map((event, i) => ({ ...event, seq: i + 1, at: 1_000_000 }));
    let received = 0;
    await expect(
      sessionObserver({ env: {}, record, events: appended, state: followed, received: () => received++ }),
    ).resolves.toBeUndefined();
    expect(received).toBe(0);
  });

  it("names the binding and the line to add when a 2025 handler reaches for a session", ({ expect }) => {
    expect(() => sessionStub({}, "p", "s1")).toThrow(
      /binds no SESSIONS namespace.*"name": "SESSIONS", "class_name": "SessionObject"/,
    );
  });
});
