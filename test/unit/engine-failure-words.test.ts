// The words a failed task says, for each way the engine can fail it: the job threw for good, it used
// up its retries (job-wide or a step's), its process kept dying, its queue message was lost. Always
// words a model can use, never a stack trace.
import { describe, it } from "vitest";
import { beginRun, endRun, failDelivery, newTask } from "../../src/core/model/machine";
import type { TaskRecord } from "../../src/core/model/record";
import { PermanentError, StepFailedError } from "../../src/jobs/context";
import { errorMessage } from "../../src/jobs/errors";
import { runTool } from "../../src/jobs/runner";
import { memoryHost, MemoryTables } from "./memory-host";

const policy = { maxAttempts: 3, baseSeconds: 1 };
const running = (record: TaskRecord, lease: string): TaskRecord => beginRun(record, lease, 60_000, 1).record;

function task(): TaskRecord {
  return newTask(
    {
      taskId: "t".repeat(32),
      principal: "p",
      tool: "x",
      args: {},
      meta: {},
      defaultTtlMs: 3_600_000,
      maxTtlMs: 86_400_000,
      pollIntervalMs: 1000,
      dispatchGraceMs: 0,
    },
    0,
  ).record;
}

/** The status message of the task after its job's run threw `error` on its last allowed attempt. */
async function failedWith(error: unknown, runs = 1): Promise<string | undefined> {
  const outcome = await runTool({ run: () => Promise.reject(error) }, {}, memoryHost(new MemoryTables()));
  let record = task();
  for (let i = 0; i < runs; i++) {
    record = endRun(running(record, `l${i}`), `l${i}`, outcome, policy, 2 + i).record;
    record = { ...record, run: { ...record.run, wakeAt: 0 } };
  }
  return record.statusMessage;
}

describe("what a task that failed says", () => {
  it("a PermanentError: the tool's own words", async ({ expect }) => {
    expect(await failedWith(new PermanentError("The order 42 does not exist."))).toBe("The order 42 does not exist.");
  });

  it("a step that used up its attempts: the step's name, its attempts and its last error", async ({ expect }) => {
    expect(await failedWith(new StepFailedError("charge", 5, "HTTP 503"))).toBe(
      'Step "charge" failed after 5 attempts: HTTP 503',
    );
  });

  it("a thrown error retried job-wide until the attempts ran out: the error and how many tries", async ({ expect }) => {
    expect(await failedWith(new Error("HTTP 503"), 3)).toBe("HTTP 503 (gave up after 3 attempts)");
  });

  it("a process that kept dying: that it stopped responding, and how often", ({ expect }) => {
    let record = running(task(), "a");
    for (const lease of ["b", "c", "d"])
      record = beginRun(record, lease, 1, 10_000_000 * lease.charCodeAt(0), 3).record;
    expect(record.status).toBe("failed");
    expect(record.statusMessage).toMatch(/^The job's process stopped responding 3 times in a row/);
  });

  it("a job message the queue gave up delivering: that the job could not be started", ({ expect }) => {
    const words = "The job could not be started: its queue message exhausted its delivery retries (last attempt 11).";
    expect(failDelivery(task(), words, 1).record.statusMessage).toBe(words);
  });

  it("never a stack trace, whatever was thrown", async ({ expect }) => {
    const error = new Error("boom");
    const withStack = new Error(error.stack);
    expect(await failedWith(new PermanentError(String(withStack.message)))).toBe("Error: boom");
    expect(errorMessage(withStack)).toBe("Error: boom");
    expect(errorMessage(new Error(""))).toBe("Error (with no message)");
    expect(errorMessage({ code: 503 })).toBe('A non-Error value was thrown: {"code":503}');
    expect(errorMessage("plain words")).toBe("plain words");
  });
});
