// The TaskObject storing a question, answering it and resuming the job (deploy), also across an
// eviction of the object while the task waits: the waiting task holds no run, only its record.
import { describe, expect as expectIn, it, vi } from "vitest";
import { until } from "../until";

vi.setConfig({ testTimeout: 30_000 });
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import type { TaskObject } from "../../src/index";
import { freshTask, hasActiveRun, storedEvents, storedRecord, type TaskStub } from "./support";
import { TaskObjectRuntime } from "../../src/core/object/runtime";

const settle = until(100);
const DEPLOY = { service: "api", version: "v2" };

/** A deploy task, delivered, waiting on its question. */
async function waitingDeploy(): Promise<{ stub: TaskStub; taskId: string }> {
  const { stub, input, taskId } = freshTask("deploy", DEPLOY);
  await stub.create(input);
  await stub.deliver();
  await vi.waitFor(async () => expectIn((await stub.get())?.task.status).toBe("input_required"), settle);
  return { stub, taskId };
}

const stepNames = async (stub: TaskStub) =>
  (await stub.events(0)).filter((e) => e.type === "step").map((e) => (e.type === "step" ? e.data.name : ""));

describe("a task that asks", () => {
  it("stores the question and waits with nothing running and only its expiry armed", async ({ expect }) => {
    const { stub } = await waitingDeploy();
    const snapshot = await stub.get();
    expect(snapshot?.task.statusMessage).toBe("Deploy api v2 to production?");
    expect(snapshot?.inputRequests).toEqual({
      confirm: {
        message: "Deploy api v2 to production?",
        requestedSchema: expect.objectContaining({ required: ["confirm"] }),
      },
    });
    const record = await storedRecord(stub);
    expect(record?.run.phase).toBe("waiting_input");
    expect(await hasActiveRun(stub)).toBe(false);
    const alarm = await runInDurableObject(stub, (_i: TaskObject, state: DurableObjectState) =>
      state.storage.getAlarm(),
    );
    expect(alarm).toBe(record?.expiresAt);
    expect((await storedEvents(stub)).map((e) => e.type)).toContain("question");
  });

  it("resumes on a valid answer, rolls out once and completes with Deployed", async ({ expect }) => {
    const { stub } = await waitingDeploy();
    const answered = await stub.answer({ confirm: { action: "accept", content: { confirm: true } } });
    expect(answered).toMatchObject({ ok: true, accepted: ["confirm"], ignored: [] });
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
    const snapshot = await stub.get();
    expect(snapshot?.outcome).toMatchObject({
      kind: "result",
      result: { content: [{ type: "text", text: expect.stringMatching(/^Deployed api v2/) }] },
    });
    expect(snapshot?.inputRequests).toBeUndefined();
    expect(await stepNames(stub)).toEqual(["plan", "rollout 1", "rollout 2", "rollout 3"]);
    expect((await storedRecord(stub))?.run.runs).toBe(2);
  });

  it("keeps waiting after an answer that breaks the form, and stores nothing", async ({ expect }) => {
    const { stub } = await waitingDeploy();
    const refused = await stub.answer({ confirm: { action: "accept", content: { confirm: "yes" } } });
    expect(refused).toMatchObject({
      ok: false,
      reason: "invalid",
      key: "confirm",
      message: expect.stringContaining('"confirm"'),
    });
    expect((await stub.get())?.task.status).toBe("input_required");
    const stored = await runInDurableObject(stub, (instance: TaskObject) =>
      TaskObjectRuntime.partsOf(instance).storage.memos.get("answers", "confirm"),
    );
    expect(stored).toBeUndefined();
  });

  it("stores an answer once: a second answer to the same key is ignored", async ({ expect }) => {
    const { stub } = await waitingDeploy();
    expect(await stub.answer({ confirm: { action: "decline" } })).toMatchObject({ ok: true, accepted: ["confirm"] });
    expect(await stub.answer({ confirm: { action: "accept", content: { confirm: true } } })).toMatchObject({
      ok: true,
      accepted: [],
      ignored: ["confirm"],
    });
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
    expect((await stub.get())?.outcome).toMatchObject({
      result: { content: [{ text: expect.stringContaining("Not deployed") }] },
    });
    expect(await stepNames(stub)).toEqual(["plan"]);
  });

  it("answers an unknown task not_found and a finished one terminal", async ({ expect }) => {
    const { stub: unknown } = freshTask("deploy", DEPLOY);
    expect(await unknown.answer({ confirm: { action: "decline" } })).toEqual({ ok: false, reason: "not_found" });
    const { stub } = await waitingDeploy();
    await stub.cancel();
    expect(await stub.answer({ confirm: { action: "decline" } })).toMatchObject({
      ok: false,
      reason: "terminal",
      snapshot: { task: { status: "cancelled" } },
    });
  });

  it("ends cleanly when cancelled while waiting: no run starts, the result says cancelled", async ({ expect }) => {
    const { stub } = await waitingDeploy();
    const cancelled = await stub.cancel();
    expect(cancelled).toMatchObject({ ok: true, snapshot: { task: { status: "cancelled" } } });
    expect((await stub.get())?.inputRequests).toBeUndefined();
    expect((await storedRecord(stub))?.run.phase).toBe("done");
    expect(await hasActiveRun(stub)).toBe(false);
  });
});

describe("a waiting task evicted from memory", () => {
  it("still has its question after the eviction, and the answer still resumes the job once", async ({ expect }) => {
    const { stub } = await waitingDeploy();
    await evictDurableObject(stub);
    expect((await stub.get())?.inputRequests).toHaveProperty("confirm");
    expect(
      await stub.answer({ confirm: { action: "accept", content: { confirm: true, note: "after eviction" } } }),
    ).toMatchObject({ ok: true, accepted: ["confirm"] });
    // Evicted again between the answer and the run its alarm starts.
    await evictDurableObject(stub);
    await vi.waitFor(async () => expect((await stub.get())?.task.status).toBe("completed"), settle);
    expect(await stepNames(stub)).toEqual(["plan", "rollout 1", "rollout 2", "rollout 3"]);
    const logs = (await stub.events(0))
      .filter((e) => e.type === "log")
      .map((e) => (e.type === "log" ? e.data.message : ""));
    expect(logs).toContain("Deploy note: after eviction");
  });
});
