// A response stream's spans (src/core/object/adapter-state.ts) on a real SQLite store: a close returns where
// the stream ended; a resume renews the stream, after which a close by its first holder (perhaps a
// dead connection's request) does nothing, and the stream stays open for every event as before.
import { describe, it } from "vitest";
import { runInDurableObject } from "cloudflare:test";
import { AdapterStateStore, isOpenAt } from "../../src/core/object/adapter-state";
import { freshTask } from "./support";

const KIND = "test/stream";

/** A store in a fresh TaskObject's SQLite, with the task's event clock in the test's hands. */
async function withStore(run: (store: AdapterStateStore, clock: { seq: number }) => void): Promise<void> {
  const { stub } = freshTask();
  await runInDurableObject(stub, (_instance, state) => {
    const clock = { seq: 3 };
    run(new AdapterStateStore(state.storage.sql, () => clock.seq), clock);
  });
}

describe("adapter state spans", () => {
  it("a close by the only holder ends the span at the latest event and says where", async ({ expect }) => {
    await withStore((store, clock) => {
      const key = store.attach(KIND, { n: 1 });
      clock.seq = 7;
      expect(store.close(KIND, key, 1)).toBe(7);
      expect(store.entry(KIND, key)?.spans).toEqual([[3, 7]]);
      clock.seq = 9;
      expect(store.close(KIND, key, 1)).toBe(7);
    });
  });

  it("after a renewal the first holder's close does nothing, and the entry is open for every event as before", async ({
    expect,
  }) => {
    await withStore((store, clock) => {
      const key = store.attach(KIND, { n: 1 });
      clock.seq = 5;
      store.renew(KIND, key);
      clock.seq = 8;
      expect(store.close(KIND, key, 1)).toBeUndefined();
      const spans = store.entry(KIND, key)?.spans ?? [];
      expect(spans).toEqual([
        [3, 5],
        [5, null],
      ]);
      for (const seq of [4, 5, 6, 8, 100]) expect(isOpenAt(spans, seq), String(seq)).toBe(true);
      expect(isOpenAt(spans, 3)).toBe(false);
    });
  });

  it("a renewal of a closed entry changes nothing", async ({ expect }) => {
    await withStore((store, clock) => {
      const key = store.attach(KIND, { n: 1 });
      clock.seq = 4;
      store.close(KIND, key);
      store.renew(KIND, key);
      expect(store.entry(KIND, key)?.spans).toEqual([[3, 4]]);
    });
  });
});
