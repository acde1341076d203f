// TaskStorage keeps the record it last read or wrote: what it answers must be what SQLite holds.
import { describe, it } from "vitest";
import { runInDurableObject } from "cloudflare:test";
import { TaskStorage } from "../../src/core/task-storage";
import type { TaskObject } from "../../src/index";
import { freshTask, storedRecord } from "./support";

describe("the record TaskStorage keeps", () => {
  it("is written through: each save is in SQLite, and a new instance reads the same record", async ({ expect }) => {
    const { stub, input } = freshTask("countdown", { seconds: 60 });
    await stub.create(input);
    await runInDurableObject(stub, (instance: TaskObject, state: DurableObjectState) => {
      const storage = (instance as unknown as { storage: TaskStorage }).storage;
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

  it("forgets the record with the database: after deleteAll, load() finds none, and a new save is read back", async ({ expect }) => {
    const { stub, input } = freshTask("countdown", { seconds: 60 });
    await stub.create(input);
    await stub.cancel();
    await runInDurableObject(stub, async (instance: TaskObject, state: DurableObjectState) => {
      const storage = (instance as unknown as { storage: TaskStorage }).storage;
      const record = storage.load();
      if (!record) throw new Error("no record");
      await state.storage.deleteAll();
      storage.ensureSchema();
      expect(storage.load()).toBeUndefined();
      storage.save(record);
      expect(new TaskStorage(state.storage.sql).load()).toEqual(record);
    });
  });
});
