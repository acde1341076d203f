// The TaskObject notes when a question first reached a reader (src/core/model/question-receipt.ts):
// written at the first read that shows it, never again on later polls, and the floor that tells a
// client's own decline from a person's runs from there (docs/human-in-the-loop.md, "Who answered").
import { describe, expect as expectIn, it, vi } from "vitest";
import { runInDurableObject } from "cloudflare:test";
import { until } from "../until";
import { TaskObjectRuntime } from "../../src/core/object/runtime";
import type { TaskObject } from "../../src/index";
import { freshTask, storedRecord, type TaskStub } from "./support";

vi.setConfig({ testTimeout: 30_000 });

/** A deploy task waiting on its question, waited for by reading storage only: no reader has seen it. */
async function unseenDeploy(): Promise<TaskStub> {
  const { stub, input } = freshTask("deploy", { service: "api", version: "v2" });
  await stub.create(input);
  await stub.deliver();
  await vi.waitFor(async () => expectIn((await storedRecord(stub))?.status).toBe("input_required"), until(50));
  return stub;
}

describe("a question's first receipt", () => {
  it("is written by the first read that shows it, and later polls write nothing", async ({ expect }) => {
    const stub = await unseenDeploy();
    expect((await storedRecord(stub))?.inputs?.["confirm"]?.seenAt).toBeUndefined();
    const writes = await runInDurableObject(stub, async (instance: TaskObject) => {
      const { storage } = TaskObjectRuntime.partsOf(instance);
      const save = storage.save.bind(storage);
      let count = 0;
      storage.save = (record) => {
        count += 1;
        save(record);
      };
      const counts: number[] = [];
      for (let poll = 0; poll < 3; poll += 1) {
        const before = count;
        await instance.get();
        counts.push(count - before);
      }
      storage.save = save;
      return counts;
    });
    expect(writes).toEqual([1, 0, 0]);
    const seen = (await storedRecord(stub))?.inputs?.["confirm"];
    expect(seen?.seenAt).toBeGreaterThanOrEqual(seen?.askedAt ?? Number.POSITIVE_INFINITY);
  });

  it("starts the floor: a question asked a minute ago, first read now and declined at once, is the client's own", async ({
    expect,
  }) => {
    const stub = await unseenDeploy();
    const answer = await runInDurableObject(stub, async (instance: TaskObject) => {
      const { storage } = TaskObjectRuntime.partsOf(instance);
      const record = storage.load();
      const asked = record?.inputs?.["confirm"];
      if (!record || !asked) throw new Error("the deploy task did not ask its question");
      // Asked a minute before anyone read it: measured from the asking, any answer now would be a person's.
      storage.save({ ...record, inputs: { confirm: { ...asked, askedAt: Date.now() - 60_000 } } });
      await instance.get();
      await instance.answer({ confirm: { action: "decline" } });
      return storage.memos.get("answers", "confirm")?.value;
    });
    expect(answer).toEqual({ action: "decline", automatic: true });
  });
});
