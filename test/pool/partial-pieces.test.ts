// Partial pieces in a real TaskObject's SQLite (core/object/partial-pieces.ts): recorded once per
// key, numbered in order, read after N, refused past the limit with nothing written, and what one
// piece costs in rows (the runtime's own rowsWritten, as docs/scale.md counts).
import { describe, it } from "vitest";
import { runInDurableObject } from "cloudflare:test";
import type { TaskObject } from "../../src/index";
import { publishPieces, readPieces } from "../../src/core/object/partial-pieces";
import { TaskStorage } from "../../src/core/object/storage";
import type { TaskRecord } from "../../src/core";
import type { Transition } from "../../src/core/model/machine";
import { freshTask } from "./support";

const limits = { maxPieces: 5, maxBytes: 64 * 1024 };
const text = (t: string) => ({ type: "text" as const, text: t });

/** SqlStorage that sums the runtime's rowsWritten of every statement. */
function counting(sql: SqlStorage): { sql: SqlStorage; written: () => number } {
  let written = 0;
  const exec = <T extends Record<string, SqlStorageValue>>(
    query: string,
    ...bindings: unknown[]
  ): SqlStorageCursor<T> => {
    const cursor = sql.exec<T>(query, ...bindings);
    // rowsWritten is known once the statement has run to its end: read it all now, serve the rows after.
    const rows = cursor.toArray();
    written += cursor.rowsWritten;
    const served = new Map<PropertyKey, unknown>([
      ["toArray", () => rows],
      ["one", () => rows[0]],
      [Symbol.iterator, () => rows[Symbol.iterator]()],
    ]);
    return new Proxy(cursor, { get: (target, key) => (served.has(key) ? served.get(key) : Reflect.get(target, key)) });
  };
  return {
    sql: new Proxy(sql, { get: (target, key) => (key === "exec" ? exec : Reflect.get(target, key)) }),
    written: () => written,
  };
}

async function withTask<T>(
  fn: (storage: TaskStorage, commit: (before: TaskRecord, transition: Transition) => void, count: () => number) => T,
): Promise<T> {
  const { stub, input } = freshTask("batch_process", { items: 1, secondsPerItem: 0 });
  await stub.create(input);
  return runInDurableObject(stub, (_instance: TaskObject, state: DurableObjectState) => {
    const { sql, written } = counting(state.storage.sql);
    const storage = new TaskStorage(sql);
    const commit = (_before: TaskRecord, { record, events }: Transition) => {
      storage.save(record);
      storage.append(events, Date.now());
    };
    return fn(storage, commit, written);
  });
}

describe("publishPieces", () => {
  it("records a key once, numbers pieces in order, and reads those after N", async ({ expect }) => {
    await withTask((storage, commit) => {
      const deps = { storage, limits, commit };
      expect(publishPieces(deps, "start#1", [text("a"), text("b")], 1).kind).toBe("published");
      expect(publishPieces(deps, "start#1", [text("a"), text("b")], 2)).toEqual({ kind: "duplicate" });
      expect(publishPieces(deps, "after x#1", [text("c")], 3)).toMatchObject({ kind: "published", pieces: [{ n: 3 }] });
      expect(readPieces(storage, 0).map((p) => p.content)).toEqual([text("a"), text("b"), text("c")]);
      expect(readPieces(storage, 2)).toEqual([{ n: 3, content: text("c") }]);
      expect(storage.load()?.partial).toMatchObject({
        pieces: 3,
        newest: [
          { n: 1, text: "a" },
          { n: 2, text: "b" },
          { n: 3, text: "c" },
        ],
      });
      expect(
        storage
          .eventsAfter(0)
          .filter((e) => e.type === "partial")
          .map((e) => e.data),
      ).toEqual(readPieces(storage, 0));
    });
  });

  it("refuses past the limit and writes nothing", async ({ expect }) => {
    await withTask((storage, commit, written) => {
      const deps = { storage, limits, commit };
      expect(publishPieces(deps, "k#1", [text("1"), text("2"), text("3"), text("4")], 1).kind).toBe("published");
      const before = written();
      const refused = publishPieces(deps, "k#2", [text("5"), text("6")], 2);
      expect(refused).toMatchObject({
        kind: "refused",
        message: expect.stringMatching(/at most 5; nothing more was published/),
      });
      expect(written()).toBe(before);
      expect(storage.memos.get("publishes", "k#2")).toBeUndefined();
      expect(readPieces(storage, 0)).toHaveLength(4);
      expect(publishPieces(deps, "k#2", [text("5")], 3).kind).toBe("published");
    });
  });

  it("costs 5 rows written for a one-block publish, 2 more per further block, and none for a repeat", async ({
    expect,
  }) => {
    await withTask((storage, commit, written) => {
      const deps = { storage, limits, commit };
      publishPieces(deps, "warm#1", [text("warm")], 1); // the first write of the record after create
      const a = written();
      publishPieces(deps, "one#1", [text("x")], 2);
      const b = written();
      publishPieces(deps, "two#1", [text("y"), text("z")], 3);
      const c = written();
      publishPieces(deps, "two#1", [text("y"), text("z")], 4);
      // A piece's number is its table's rowid (schema.ts): one row each, where 0.1 wrote a name index row too (6, 9).
      expect([b - a, c - b, written() - c]).toEqual([5, 7, 0]);
    });
  });
});
