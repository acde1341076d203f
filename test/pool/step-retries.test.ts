// A step with a retry policy of its own in a real TaskObject: `external_job`'s submission, refused by
// the simulated service once ("busy") or every time ("closed"). Attempts are journaled and shown in
// the task document; a step that gives up fails the task with its name and last error in words.
import { describe, it, vi } from "vitest";
import { runInDurableObject } from "cloudflare:test";
import type { TaskObject } from "../../src/index";
import { taskDocument } from "../../src/protocol/task-document";
import { freshTask, storedRecord, type TaskStub } from "./support";
import { until } from "../until";

const settle = until(100);

function logMessages(stub: TaskStub): Promise<string[]> {
  return runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) =>
    state.storage.sql
      .exec<{ data: string }>("SELECT data FROM events WHERE type = 'log' ORDER BY seq")
      .toArray()
      .map((row) => String((JSON.parse(row.data) as { message: unknown }).message)),
  );
}

describe("a step's own retries", () => {
  it("retries a refused submission inside the run, and the task document lists the step's attempts", async ({
    expect,
  }) => {
    const { stub, input } = freshTask("external_job", { durationSeconds: 1, pollSeconds: 1, simulate: "busy" });
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("completed"), settle);

    // The step retried on its own: no job-wide retry was needed.
    expect((await storedRecord(stub))?.run).toMatchObject({ failures: 0 });
    expect(await logMessages(stub)).toEqual([
      'Step "submit" attempt 1 failed: The external service refused the submission: HTTP 429, too many jobs queued.',
    ]);
    const snapshot = await stub.get();
    if (!snapshot) throw new Error("the task is gone");
    const doc = taskDocument(snapshot);
    expect(doc["steps"]).toEqual([
      {
        name: "submit",
        state: "succeeded",
        attempts: 2,
        durationsMs: [expect.any(Number), expect.any(Number)],
        lastError: "The external service refused the submission: HTTP 429, too many jobs queued.",
      },
    ]);
    // The job id is the step's idempotency key: a repeat of the submission would name the same job.
    expect(JSON.stringify(doc["result"])).toMatch(new RegExp(`ext-${input.taskId}-[0-9a-f]{16}`));
  });

  it("fails the task with the step's name and last error, in words, once its attempts are used up", async ({
    expect,
  }) => {
    const { stub, input } = freshTask("external_job", { durationSeconds: 1, simulate: "closed" });
    await stub.create(input);
    await stub.deliver();
    await vi.waitFor(async () => expect((await storedRecord(stub))?.status).toBe("failed"), settle);

    const words =
      'Step "submit" failed after 3 attempts: The external service refused the submission: HTTP 429, too many jobs queued.';
    const record = await storedRecord(stub);
    // A step that gave up is not retried job-wide: its policy was the retry policy.
    expect(record?.run).toMatchObject({ runs: 1, failures: 1 });
    expect(record?.statusMessage).toBe(words);
    expect(record?.outcome).toEqual({
      kind: "result",
      result: { content: [{ type: "text", text: words }], isError: true },
    });
    expect(record?.statusMessage).not.toMatch(/\n\s+at /);
    const snapshot = await stub.get();
    if (!snapshot) throw new Error("the task is gone");
    expect(taskDocument(snapshot)["steps"]).toEqual([
      expect.objectContaining({ name: "submit", state: "failed", attempts: 3, durationsMs: expect.any(Array) }),
    ]);
  });
});
