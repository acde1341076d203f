import { describe, it, vi } from "vitest";
import type { JobHost } from "../../src/core";
import { jobRunner } from "../../src/jobs/runner";
import { toolHolder } from "../../src/package/tool-set";
import { tools } from "../../src/tools/registry";
import { createJobContext, MAX_STEP_BYTES, YIELD_THRESHOLD_MS } from "../../src/jobs/job-context";
import type { YieldState } from "../../src/jobs/yield-state";
import type { LogLevel } from "../../src/jobs/context";
import { until } from "../until";
import { memoryHost, MemoryTables } from "./memory-host";

/** A JobHost over plain maps, standing in for the TaskObject's tables across runs. */
class FakeTask extends MemoryTables {
  stepEvents: string[] = [];
  progress: number[] = [];
  logs: { level: LogLevel; message: string }[] = [];
  runs = 0;
  controller = new AbortController();

  host(sliceMs = 60_000): JobHost {
    this.runs += 1;
    this.controller = new AbortController();
    return memoryHost(this, {
      attempt: this.runs,
      signal: this.controller.signal,
      sliceDeadline: Date.now() + sliceMs,
      progress: (p) => {
        // Like the TaskObject: repeats from a replayed run are dropped.
        if (this.progress.length === 0 || p > (this.progress.at(-1) ?? -Infinity)) this.progress.push(p);
      },
      log: (level, message) => void this.logs.push({ level, message }),
      saveStep: (name, value) => {
        if (this.steps.has(name)) return;
        this.steps.set(name, value);
        this.stepEvents.push(name);
      },
    });
  }

  /** Every durable sleep's wake-up time moved to the past: the next run finds them over. */
  wakeSleeps(): void {
    for (const key of this.sleeps.keys()) this.sleeps.set(key, Date.now() - 1);
  }
}

/**
 * Runs `work` on vitest's fake clock, moved past every timer until `work` ends: each in-memory
 * sleep passes at once, Date.now() moving with it. Gives the result and the fake time it took.
 */
async function onFakeClock<T>(work: () => Promise<T>): Promise<{ result: T; tookMs: number }> {
  vi.useFakeTimers();
  try {
    const start = Date.now();
    const pending = work();
    await vi.runAllTimersAsync();
    return { result: await pending, tookMs: Date.now() - start };
  } finally {
    vi.useRealTimers();
  }
}

describe("the job context and its host", () => {
  it("asks the host to deliver what the job reported before each in-memory sleep", async ({ expect }) => {
    const task = new FakeTask();
    const order: string[] = [];
    const host = task.host();
    const job = createJobContext(
      { ...host, progress: (p) => order.push(`progress ${p}`), flush: () => order.push("flush") },
      {},
    );
    const { tookMs } = await onFakeClock(async () => {
      await job.progress(1, 2);
      await job.sleep(0.01);
      await job.progress(2, 2);
    });
    expect(order).toEqual(["progress 1", "flush", "progress 2"]);
    expect(tookMs).toBe(10);
  });
});

const runJob = jobRunner(toolHolder().record(tools).find);

describe("runJob outcomes", () => {
  it("completes batch_process with one step per item", async ({ expect }) => {
    const task = new FakeTask();
    const outcome = await runJob("batch_process", { items: 3, secondsPerItem: 0 }, task.host());
    expect(outcome).toEqual({
      kind: "completed",
      result: {
        content: [{ type: "text", text: "Processed 3 items." }],
        structuredContent: { summary: "Processed 3 items.", items: 3, checksum: 14 },
      },
    });
    expect(task.stepEvents).toEqual(["item-1", "item-2", "item-3"]);
    expect(task.progress).toEqual([1, 2, 3]);
  });

  it("fails permanently for an unknown tool and for input its schema rejects", async ({ expect }) => {
    expect(await runJob("no_such_tool", {}, new FakeTask().host())).toMatchObject({ kind: "failed", permanent: true });
    expect(await runJob("countdown", { seconds: -1 }, new FakeTask().host())).toMatchObject({
      kind: "failed",
      permanent: true,
    });
  });

  it("reports a thrown error as retryable, and a PermanentError as permanent", async ({ expect }) => {
    const flaky = await runJob("external_job", { durationSeconds: 1, simulate: "outage" }, new FakeTask().host());
    expect(flaky).toMatchObject({ kind: "failed", permanent: false, message: expect.stringContaining("HTTP 503") });
    // Polled after half its duration, the fake service reports the job failed: no retry helps.
    const rejected = await onFakeClock(() =>
      runJob("external_job", { durationSeconds: 2, pollSeconds: 1, simulate: "reject" }, new FakeTask().host()),
    );
    expect(rejected.result).toMatchObject({
      kind: "failed",
      permanent: true,
      message: expect.stringContaining("rejected"),
    });
    expect(rejected.tookMs).toBe(1000);
  });

  it("yields on a sleep of 30 s or more, and resumes without repeating finished steps", async ({ expect }) => {
    const task = new FakeTask();
    const before = Date.now();
    const first = await runJob("batch_process", { items: 2, secondsPerItem: 40 }, task.host());
    expect(first).toMatchObject({ kind: "yielded", reason: "processing item 1 of 2" });
    if (first.kind !== "yielded") return;
    expect(first.wakeAt).toBeGreaterThanOrEqual(before + 40_000);
    expect(task.stepEvents).toEqual([]);

    // The clock "passes" the wake-up: rewrite the remembered sleep as due.
    task.wakeSleeps();
    const second = await runJob("batch_process", { items: 2, secondsPerItem: 40 }, task.host());
    expect(second).toMatchObject({ kind: "yielded", reason: "processing item 2 of 2" });
    expect(task.stepEvents).toEqual(["item-1"]);
    expect(task.progress).toEqual([1]);

    task.wakeSleeps();
    const third = await runJob("batch_process", { items: 2, secondsPerItem: 40 }, task.host());
    expect(third).toMatchObject({ kind: "completed" });
    expect(task.stepEvents).toEqual(["item-1", "item-2"]);
    expect(task.progress).toEqual([1, 2]);
  });

  it("yields a short sleep that would outlast the run's slice", async ({ expect }) => {
    const outcome = await runJob("batch_process", { items: 1, secondsPerItem: 2 }, new FakeTask().host(500));
    expect(outcome).toMatchObject({ kind: "yielded" });
  });

  it("reports an aborted run as aborted, whatever the tool threw", async ({ expect }) => {
    const task = new FakeTask();
    const host = task.host();
    const pending = runJob("countdown", { seconds: 3600 }, host);
    await vi.waitFor(() => expect(task.steps.has("started")).toBe(true), until());
    task.controller.abort(new Error("cancelled"));
    expect(await pending).toEqual({ kind: "aborted" });
    expect(task.progress).toEqual([]);
  });

  it("retries the flaky external service and does not submit twice", async ({ expect }) => {
    const task = new FakeTask();
    const args = { durationSeconds: 1, pollSeconds: 1, simulate: "flaky" };
    expect(await runJob("external_job", args, task.host())).toMatchObject({ kind: "failed", permanent: false });
    const submitted = task.steps.get("submit");
    const { result: outcome, tookMs } = await onFakeClock(() => runJob("external_job", args, task.host()));
    // The retry polls once, sleeps its poll interval, and finds the job done.
    expect(tookMs).toBe(1000);
    expect(outcome).toMatchObject({
      kind: "completed",
      result: { structuredContent: { jobId: (submitted as { jobId: string }).jobId } },
    });
    expect(task.stepEvents.filter((name) => name === "submit")).toHaveLength(1);
    expect(task.progress.at(-1)).toBe(100);
  });
});

describe("JobContext steps and sleeps", () => {
  it("runs a step's body once and replays its stored JSON afterwards", async ({ expect }) => {
    const task = new FakeTask();
    let calls = 0;
    const body = () => {
      calls += 1;
      return { at: new Date(0), n: 1 };
    };
    const first = await createJobContext(task.host(), {}).step("load", body);
    const replay = await createJobContext(task.host(), {}).step("load", body);
    expect(calls).toBe(1);
    // Both runs see the same JSON value, not a Date on one and a string on the other.
    expect(first).toEqual({ at: "1970-01-01T00:00:00.000Z", n: 1 });
    expect(replay).toEqual(first);
    expect(task.stepEvents).toEqual(["load"]);
  });

  it("does not store a failed step, so a retry runs it again", async ({ expect }) => {
    const task = new FakeTask();
    const job = createJobContext(task.host(), {});
    await expect(job.step("x", () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(task.steps.has("x")).toBe(false);
    expect(await createJobContext(task.host(), {}).step("x", () => 7)).toBe(7);
  });

  it("rejects step results that are not JSON or too large, permanently", async ({ expect }) => {
    const job = createJobContext(new FakeTask().host(), {});
    await expect(job.step("big", () => "x".repeat(MAX_STEP_BYTES + 1))).rejects.toMatchObject({
      name: "PermanentError",
    });
    await expect(job.step("bigint", () => 1n)).rejects.toMatchObject({ name: "PermanentError" });
  });

  it("names sleeps by where they run, so a replayed step that skips its inner sleep shifts nothing", async ({
    expect,
  }) => {
    const task = new FakeTask();
    const body = async (job: ReturnType<typeof createJobContext>) => {
      await job.step("a", () => job.sleep(0.001));
      await job.sleep(0.001);
      await job.step("b", () => job.sleep(0.001));
    };
    await onFakeClock(() => body(createJobContext(task.host(), {})));
    const keys = [...task.sleeps.keys()];
    // Three sleeps of the same length, each its own name: in a, in the job, in b.
    expect(new Set(keys).size).toBe(3);
    // A second run replays everything and stores no new sleeps.
    await body(createJobContext(task.host(), {}));
    expect([...task.sleeps.keys()]).toEqual(keys);
  });

  it("waits out only the rest of a sleep after a resume", async ({ expect }) => {
    const task = new FakeTask();
    const state = {};
    await expect(createJobContext(task.host(), state).sleep(YIELD_THRESHOLD_MS / 1000)).rejects.toMatchObject({
      name: "JobYield",
    });
    const [key, stored] = [...task.sleeps][0] ?? [];
    expect(typeof stored).toBe("number");
    // Resumed after the wake-up time: the sleep returns at once.
    task.sleeps.set(key ?? "", Date.now() - 1);
    await createJobContext(task.host(), {}).sleep(YIELD_THRESHOLD_MS / 1000);
  });

  it("refuses a negative or non-finite sleep", async ({ expect }) => {
    const job = createJobContext(new FakeTask().host(), {});
    await expect(job.sleep(-1)).rejects.toMatchObject({ name: "PermanentError" });
    await expect(job.sleep(Number.NaN)).rejects.toMatchObject({ name: "PermanentError" });
    await expect(job.sleepUntil(new Date("nope"))).rejects.toMatchObject({ name: "PermanentError" });
  });
});

describe("job.elicit", () => {
  const answerWith = (task: FakeTask, answer: unknown) => task.answers.set("confirm", answer);

  it("ends the run asking deploy's question after its plan step", async ({ expect }) => {
    const task = new FakeTask();
    const outcome = await runJob("deploy", { service: "api", version: "v2" }, task.host());
    expect(outcome).toMatchObject({
      kind: "input",
      questions: [{ key: "confirm", message: "Deploy api v2 to production?" }],
    });
    expect(outcome.kind === "input" && outcome.questions[0]?.requestedSchema).toMatchObject({
      required: ["confirm"],
      properties: { confirm: { type: "boolean" }, note: { type: "string" } },
    });
    expect(task.stepEvents).toEqual(["plan"]);
  });

  it("resumes with the stored answer, rolls out in three steps with progress, and says Deployed", async ({
    expect,
  }) => {
    const task = new FakeTask();
    await runJob("deploy", { service: "api", version: "v2" }, task.host());
    answerWith(task, { action: "accept", content: { confirm: true, note: "go" } });
    const { result: outcome, tookMs } = await onFakeClock(() =>
      runJob("deploy", { service: "api", version: "v2" }, task.host()),
    );
    expect(outcome).toMatchObject({
      kind: "completed",
      result: { content: [{ type: "text", text: expect.stringMatching(/^Deployed api v2/) }] },
    });
    // Three rollout steps, each sleeping one second.
    expect(tookMs).toBe(3000);
    expect(task.stepEvents).toEqual(["plan", "rollout 1", "rollout 2", "rollout 3"]);
    expect(task.progress).toEqual([1, 2, 3]);
    expect(task.logs).toContainEqual({ level: "info", message: "Deploy note: go" });
  });

  it("deploys nothing on decline, cancel or confirm false, as a normal result", async ({ expect }) => {
    for (const answer of [
      { action: "decline" },
      { action: "cancel" },
      { action: "accept", content: { confirm: false } },
    ]) {
      const task = new FakeTask();
      await runJob("deploy", { service: "api", version: "v2" }, task.host());
      answerWith(task, answer);
      const outcome = await runJob("deploy", { service: "api", version: "v2" }, task.host());
      expect(outcome).toMatchObject({
        kind: "completed",
        result: { content: [{ type: "text", text: expect.stringContaining("Not deployed") }] },
      });
      expect(outcome.kind === "completed" && outcome.result["isError"]).toBeFalsy();
      expect(task.stepEvents).toEqual(["plan"]);
    }
  });

  it("says who answered: a person's decline, or the client's own, with what a person can still do", async ({
    expect,
  }) => {
    const words = async (answer: Record<string, unknown>): Promise<string> => {
      const task = new FakeTask();
      await runJob("deploy", { service: "api", version: "v2" }, task.host());
      answerWith(task, answer);
      const outcome = await runJob("deploy", { service: "api", version: "v2" }, task.host());
      const content = outcome.kind === "completed" ? outcome.result["content"] : undefined;
      return Array.isArray(content) ? String(content[0]?.text) : "";
    };
    expect(await words({ action: "decline" })).toBe(
      "Not deployed: the person declined deploying api v2 to production.",
    );
    const own = await words({ action: "decline", automatic: true });
    expect(own).toMatch(
      /^Not deployed: the client declined "Deploy api v2 to production\?" on its own, at once, so no one saw or answered the question\. Nothing was rolled out\. /,
    );
    expect(own).toContain("call deploy again where a person can answer");
    expect(own).toContain("task_input");
    expect(own).toContain("task console (its / page)");
    expect(await words({ action: "cancel", automatic: true })).toMatch(
      /^Not deployed: the client cancelled "Deploy api v2 to production\?" on its own/,
    );
  });

  it("asks every question a run asks at once, even when the tool catches the throw", async ({ expect }) => {
    const task = new FakeTask();
    const job = createJobContext(task.host(), {});
    const state: YieldState = {};
    const asking = createJobContext(task.host(), state);
    const form = { type: "object", properties: { ok: { type: "boolean" } } };
    await Promise.allSettled([
      asking.elicit("a", { message: "A?", requestedSchema: form }),
      asking.elicit("b", { message: "B?", requestedSchema: form }),
    ]);
    expect(state.questions).toHaveLength(2);
    await expect(job.elicit("bad key!", { message: "?", requestedSchema: form })).rejects.toMatchObject({
      name: "PermanentError",
    });
    await expect(job.elicit("k", { message: "", requestedSchema: form })).rejects.toMatchObject({
      name: "PermanentError",
    });
    await expect(
      job.elicit("k", {
        message: "Nested?",
        requestedSchema: { type: "object", properties: { deep: { type: "object" } } },
      }),
    ).rejects.toMatchObject({ name: "PermanentError", message: expect.stringContaining("flat object") });
  });
});
