// A replay under changed code in a real TaskObject (issue 50, point 4): the task's journal holds a
// step the tool no longer asks for (an earlier deploy's name), and the run asks for one it never
// recorded. The task logs it once, in words, and its document says so; nothing else changes.
import { describe, it, vi } from "vitest";
import { runInDurableObject } from "cloudflare:test";
import type { TaskObject } from "../../src/index";
import { TaskObjectRuntime } from "../../src/core/object/runtime";
import { taskDocument } from "../../src/protocol/task-document";
import { freshTask, storedRecord, type TaskStub } from "./support";
import { until } from "../until";

const settle = until(100);

function logMessages(stub: TaskStub): Promise<{ level: string; message: string }[]> {
  return runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) =>
    state.storage.sql
      .exec<{ data: string }>("SELECT data FROM events WHERE type = 'log' ORDER BY seq")
      .toArray()
      .map((row) => JSON.parse(row.data) as { level: string; message: string }),
  );
}

/** Tables of the task's database by name. */
function tableNames(stub: TaskStub): Promise<string[]> {
  return runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) =>
    state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")
      .toArray()
      .map((row) => row.name),
  );
}

describe("a run that does not match its task's journal", () => {
  it("logs once, in words, the step it asked for and the recorded one it left unused", async ({ expect }) => {
    const { stub, input } = freshTask("external_job", { durationSeconds: 1, pollSeconds: 1 });
    await stub.prepare();
    // What an earlier deploy's run left: a step under a name the tool no longer uses.
    // Written through the task's storage: a job's table is made by its first write (schema.ts).
    await runInDurableObject(stub, (instance: TaskObject) => {
      TaskObjectRuntime.partsOf(instance).storage.memos.put(
        "steps",
        "submit to the old API",
        { jobId: "old" },
        Date.now(),
      );
    });
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("completed"), settle);

    const warnings = (await logMessages(stub)).filter((log) => log.level === "warning").map((log) => log.message);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('this run asked for step "submit"');
    expect(warnings[0]).toContain('while step "submit to the old API", recorded by an earlier run, went unused');
    expect(warnings[0]).toContain("it started on version 1, as this run");
    const snapshot = await stub.get();
    if (!snapshot) throw new Error("the task is gone");
    expect(taskDocument(snapshot)["journal"]).toEqual({ mismatch: warnings[0] });
  });

  it("says nothing, and records no version, for a task whose tool declares none", async ({ expect }) => {
    const { stub, input } = freshTask("external_job", { durationSeconds: 1, pollSeconds: 1 });
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("completed"), settle);
    expect((await logMessages(stub)).filter((log) => log.level === "warning")).toEqual([]);
    expect(await tableNames(stub)).not.toContain("tool_versions");
    const snapshot = await stub.get();
    expect(snapshot && taskDocument(snapshot)["journal"]).toBeUndefined();
  });
});
