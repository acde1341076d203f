// TaskStorage keeps what it last read or wrote (the record, the event clock, a new task's empty
// adapter state): what it answers must be what SQLite holds, and what a new instance would read.
import { describe, it } from "vitest";
import { runInDurableObject } from "cloudflare:test";
import { TaskObjectRuntime } from "../../src/core/object/runtime";
import { TaskStorage } from "../../src/core/object/storage";
import type { TaskObject } from "../../src/index";
import { freshTask, storedRecord } from "./support";

describe("the record TaskStorage keeps", () => {
  it("is written through: each save is in SQLite, and a new instance reads the same record", async ({ expect }) => {
    const { stub, input } = freshTask("countdown", { seconds: 60 });
    await stub.create(input);
    await runInDurableObject(stub, (instance: TaskObject, state: DurableObjectState) => {
      const storage = TaskObjectRuntime.partsOf(instance).storage;
      const record = storage.load();
      if (!record) throw new Error("no record");
      storage.save({ ...record, statusMessage: "Saved through the cache." });
      expect(storage.load()?.statusMessage).toBe("Saved through the cache.");
      const row = state.storage.sql.exec<{ record: string }>("SELECT record FROM task WHERE id = 1").one();
      expect(JSON.parse(row.record)).toEqual(storage.load());
      // What a new instance of the object (a restarted process) would read.
      expect(new TaskStorage(state.storage.sql).load()).toEqual(storage.load());
    });
    expect((await storedRecord(stub))?.statusMessage).toBe("Saved through the cache.");
    await stub.cancel();
  });

  it("forgets the record with the database: after deleteAll, load() finds none, and a new save is read back", async ({
    expect,
  }) => {
    const { stub, input } = freshTask("countdown", { seconds: 60 });
    await stub.create(input);
    await stub.cancel();
    await runInDurableObject(stub, async (instance: TaskObject, state: DurableObjectState) => {
      const storage = TaskObjectRuntime.partsOf(instance).storage;
      const record = storage.load();
      if (!record) throw new Error("no record");
      await state.storage.deleteAll();
      // What the object does when its task expires.
      storage.dropped();
      storage.ensureSchema();
      expect(storage.load()).toBeUndefined();
      expect(storage.lastSeq()).toBe(0);
      storage.save(record);
      expect(new TaskStorage(state.storage.sql).load()).toEqual(record);
    });
  });

  it("keeps the event clock: lastSeq follows every append and matches SQLite, in this instance and a new one", async ({
    expect,
  }) => {
    const { stub, input } = freshTask("countdown", { seconds: 60 });
    await stub.create(input);
    await runInDurableObject(stub, (instance: TaskObject, state: DurableObjectState) => {
      const storage = TaskObjectRuntime.partsOf(instance).storage;
      const stored = () => state.storage.sql.exec<{ seq: number }>("SELECT MAX(seq) AS seq FROM events").one().seq;
      const before = storage.lastSeq();
      expect(before).toBe(stored());
      const appended = storage.append(
        [
          { type: "log", data: { level: "info", message: "one" } },
          { type: "log", data: { level: "info", message: "two" } },
        ],
        Date.now(),
      );
      expect(appended.map((event) => event.seq)).toEqual([before + 1, before + 2]);
      expect(storage.lastSeq()).toBe(before + 2);
      expect(stored()).toBe(before + 2);
      expect(new TaskStorage(state.storage.sql).lastSeq()).toBe(before + 2);
    });
    await stub.cancel();
  });

  it("knows a new task's database holds nothing: state attached in a pooled object is what a new instance reads, spans from the first event", async ({
    expect,
  }) => {
    const { stub, input } = freshTask("countdown", { seconds: 60 });
    await stub.prepare();
    await runInDurableObject(stub, (instance: TaskObject, state: DurableObjectState) => {
      const storage = TaskObjectRuntime.partsOf(instance).storage;
      expect(storage.load()).toBeUndefined();
      expect(storage.lastSeq()).toBe(0);
      expect(storage.state.list("watch")).toEqual([]);
      // prepare made the adapter_state table too, empty: the first entry pays no CREATE TABLE on its call's path.
      expect(state.storage.sql.exec("SELECT name FROM sqlite_master WHERE name = 'adapter_state'").toArray()).toEqual([
        { name: "adapter_state" },
      ]);
      expect(state.storage.sql.exec("SELECT COUNT(*) AS n FROM adapter_state").one()).toEqual({ n: 0 });
    });
    await stub.create(input, { state: [{ kind: "watch", key: "s1", value: { at: 1 } }] });
    await stub.attachState("watch", { at: 2 }, "s2");
    await runInDurableObject(stub, (instance: TaskObject, state: DurableObjectState) => {
      const storage = TaskObjectRuntime.partsOf(instance).storage;
      const fresh = new TaskStorage(state.storage.sql);
      expect(fresh.state.list("watch")).toEqual(storage.state.list("watch"));
      expect(fresh.state.list("watch").map((entry) => [entry.key, entry.value])).toEqual([
        ["s1", { at: 1 }],
        ["s2", { at: 2 }],
      ]);
      expect(fresh.state.entry("watch", "s1")?.spans).toEqual([[0, null]]);
      expect(fresh.lastSeq()).toBe(storage.lastSeq());
    });
    await stub.cancel();
  });
});
